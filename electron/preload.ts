import { contextBridge, ipcRenderer } from 'electron';
import { CHANNELS, type FolioBridge } from './bridge.js';

const bridge = {
  appVersion: process.env.FOLIO_APP_VERSION ?? '',
  revealDataFolder: () => ipcRenderer.invoke(CHANNELS.revealDataFolder),
  chooseFolder: () => ipcRenderer.invoke(CHANNELS.chooseFolder),
  revealLogFile: () => ipcRenderer.invoke(CHANNELS.revealLogFile),
} satisfies FolioBridge;

contextBridge.exposeInMainWorld('folio', bridge);
