/**
 * The standard ggml Whisper models published at huggingface.co/ggerganov/whisper.cpp.
 * sha1: whisper.cpp models/README.md ("Available models" table).
 * bytes and sha256: Hugging Face LFS metadata at revision 5359861c739e955e79d9a303bcbc70fb988958b1, as
 * pinned by third-party manifests (several agree on tiny, small, medium, large-v3 and large-v3-turbo);
 * not re-checked against Hugging Face from here. Downloads verify sha256 when present, else sha1.
 */
export interface CatalogModel {
  name: string;
  file: string;
  bytes: number;
  sha256?: string;
  sha1?: string;
  multilingual: boolean;
}

export const modelCatalog: readonly CatalogModel[] = [
  {
    name: 'tiny',
    file: 'ggml-tiny.bin',
    bytes: 77_691_713,
    multilingual: true,
    sha1: 'bd577a113a864445d4c299885e0cb97d4ba92b5f',
    sha256: 'be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21',
  },
  {
    name: 'tiny.en',
    file: 'ggml-tiny.en.bin',
    bytes: 77_704_715,
    multilingual: false,
    sha1: 'c78c86eb1a8faa21b369bcd33207cc90d64ae9df',
    sha256: '921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f',
  },
  {
    name: 'base',
    file: 'ggml-base.bin',
    bytes: 147_951_465,
    multilingual: true,
    sha1: '465707469ff3a37a2b9b8d8f89f2f99de7299dac',
    sha256: '60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe',
  },
  {
    name: 'base.en',
    file: 'ggml-base.en.bin',
    bytes: 147_964_211,
    multilingual: false,
    sha1: '137c40403d78fd54d454da0f9bd998f78703390c',
    sha256: 'a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002',
  },
  {
    name: 'small',
    file: 'ggml-small.bin',
    bytes: 487_601_967,
    multilingual: true,
    sha1: '55356645c2b361a969dfd0ef2c5a50d530afd8d5',
    sha256: '1be3a9b2063867b937e64e2ec7483364a79917e157fa98c5d94b5c1fffea987b',
  },
  {
    name: 'small.en',
    file: 'ggml-small.en.bin',
    bytes: 487_614_201,
    multilingual: false,
    sha1: 'db8a495a91d927739e50b3fc1cc4c6b8f6c2d022',
    sha256: 'c6138d6d58ecc8322097e0f987c32f1be8bb0a18532a3f88f734d1bbf9c41e5d',
  },
  {
    name: 'medium',
    file: 'ggml-medium.bin',
    bytes: 1_533_763_059,
    multilingual: true,
    sha1: 'fd9727b6e1217c2f614f9b698455c4ffd82463b4',
    sha256: '6c14d5adee5f86394037b4e4e8b59f1673b6cee10e3cf0b11bbdbee79c156208',
  },
  {
    name: 'medium.en',
    file: 'ggml-medium.en.bin',
    bytes: 1_533_774_781,
    multilingual: false,
    sha1: '8c30f0e44ce9560643ebd10bbe50cd20eafd3723',
    sha256: 'cc37e93478338ec7700281a7ac30a10128929eb8f427dda2e865faa8f6da4356',
  },
  {
    name: 'large-v3',
    file: 'ggml-large-v3.bin',
    bytes: 3_095_033_483,
    multilingual: true,
    sha1: 'ad82bf6a9043ceed055076d0fd39f5f186ff8062',
    sha256: '64d182b440b98d5203c4f9bd541544d84c605196c4f7b845dfa11fb23594d1e2',
  },
  {
    name: 'large-v3-turbo',
    file: 'ggml-large-v3-turbo.bin',
    bytes: 1_624_555_275,
    multilingual: true,
    sha1: '4af2b29d7ec73d781377bfd1758ca957a807e941',
    sha256: '1fc70f774d38eb169993ac391eea357ef47c88757ef72ee5943879b7e8e2bc69',
  },
];

export function findCatalogModel(nameOrFile: string): CatalogModel | undefined {
  return modelCatalog.find((m) => m.name === nameOrFile || m.file === nameOrFile);
}
