import { File, FileAudio, FileImage, FileText, FileVideo, Shapes } from 'lucide-react';
import type { AssetType } from '../../../api/types';

const icons = {
  image: FileImage,
  audio: FileAudio,
  video: FileVideo,
  document: FileText,
  svg: Shapes,
  other: File,
};

export function AssetIcon({ type, size = 16 }: { type: AssetType; size?: number }) {
  const Icon = icons[type] ?? File;
  return <Icon size={size} aria-hidden />;
}
