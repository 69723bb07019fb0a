// The asset record every library bench seeds: asset n is "Photo n" (photo-n.png, tags bench and t<n mod 10>),
// created n seconds into 2026. A bench child seeding another checkout passes that tree's key maker and search text.

export type RowMakers = { key: (n: number) => string; searchTextOf: (named: Named) => string };
type Named = { displayName: string; filename: string; tags: string[] };

export function benchAssetRow(n: number, { key, searchTextOf }: RowMakers) {
  const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  const named = { displayName: `Photo ${n}`, filename: `photo-${n}.png`, tags: ['bench', `t${n % 10}`] };
  return {
    id: `ast_seed${String(n).padStart(15, '0')}`,
    key: key(n),
    ...named,
    type: 'image' as const,
    size: 1000 + n,
    contentType: 'image/png',
    sha256: 'a'.repeat(64),
    width: 640,
    height: 480,
    searchText: searchTextOf(named),
    createdAt: at,
    updatedAt: at,
  };
}
