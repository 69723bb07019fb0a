import { FolderOpen, Info, RefreshCw } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Form } from 'react-aria-components';
import { toast } from 'sonner';
import { desktop } from '../../api/bridge';
import { type DevicePreference, PREFERENCE_LABELS } from '../../api/transcription-device';
import { Button, ButtonLink } from '../../ui/button';
import { UrlRow } from '../../ui/copy';
import { TextField } from '../../ui/field';
import { Page, Section } from '../../ui/page';
import { Properties } from '../../ui/side-panel';
import { ErrorState, LoadingRows } from '../../ui/states';
import { Switch } from '../../ui/switch';
import { type Settings, useSettings } from './api/get-settings';
import { useTranscriptionDevice } from './api/get-transcription-device';
import { useUpdateSettings } from './api/update-settings';
import { DeviceChoice } from './components/device-choice';
import { WatchedFolders } from './components/watched-folders';
import './settings.css';
import { LogFile } from './components/log-file';

export default function SettingsScreen() {
  const settings = useSettings();
  return (
    <Page
      title="Settings"
      description="How this Folio runs on your computer. Changes apply the next time Folio starts, except the transcription device and silence skipping, which change at once."
    >
      {settings.isPending ? (
        <LoadingRows rows={4} label="Loading settings" />
      ) : settings.isError ? (
        <ErrorState error={settings.error} onRetry={() => settings.refetch()} />
      ) : (
        <div className="stack-lg narrow">
          {settings.data.restartRequired && (
            <div className="callout warning" role="status">
              <RefreshCw size={16} />
              <span>Saved. Restart Folio to use the new settings.</span>
            </div>
          )}
          {settings.data.editable ? (
            <SettingsForm view={settings.data} />
          ) : (
            <HeadlessSettings view={settings.data} />
          )}
          <WatchedFolders />
          {settings.data.running.logFile && <LogFile path={settings.data.running.logFile} />}
          <Section
            title="Sync"
            description="Keep a workspace in step with a hosted Folio: connect with a key from it, sync now or on a schedule, and resolve conflicts."
          >
            <div>
              <ButtonLink href="/sync" size="sm" icon={<RefreshCw size={14} />}>
                Open sync settings
              </ButtonLink>
            </div>
          </Section>
          <Section title="For agents">
            <div className="stack url-list">
              <UrlRow label="API" url={`${settings.data.running.url}/api/v1`} />
              <UrlRow label="MCP" url={`${settings.data.running.url}/mcp`} />
              <UrlRow label="llms.txt" url={`${settings.data.running.url}/llms.txt`} />
              <UrlRow label="OpenAPI" url={`${settings.data.running.url}/api/v1/openapi.json`} />
            </div>
          </Section>
        </div>
      )}
    </Page>
  );
}

function HeadlessSettings({ view }: { view: Settings }) {
  const { running } = view;
  const device = useTranscriptionDevice().data?.device;
  return (
    <Section
      title="Server"
      description="This Folio was started from the command line, so its flags are its settings."
    >
      <Properties
        items={[
          [
            'Address',
            <span key="a" className="mono">
              {running.url}
            </span>,
          ],
          [
            'Port',
            <span key="p">
              {running.port} <span className="faint mono">--port</span>
            </span>,
          ],
          [
            'Data folder',
            <span key="d">
              <span className="mono">{running.dataDir}</span> <span className="faint mono">--data-dir</span>
            </span>,
          ],
          [
            'Whisper threads',
            <span key="t">
              {running.whisperThreads} <span className="faint mono">--whisper-threads</span>
            </span>,
          ],
          ...deviceRows(running.whisperDevice, device?.label),
        ]}
      />
      <div className="callout">
        <Info size={16} />
        <span>
          Restart with different flags to change them, e.g. <code>npm run serve -- --port 4790</code>.
        </span>
      </div>
    </Section>
  );
}

function SettingsForm({ view }: { view: Settings }) {
  const saved = view.saved ?? { port: view.running.port, whisperThreads: view.running.whisperThreads };
  const [port, setPort] = useState(String(saved.port));
  const [dataDir, setDataDir] = useState(saved.dataDir ?? view.running.dataDir);
  const [threads, setThreads] = useState(String(saved.whisperThreads));
  const runningDevice = view.running.whisperDevice;
  const [device, setDevice] = useState<DevicePreference>(
    view.saved?.whisperDevice ?? runningDevice ?? 'auto',
  );
  const [vad, setVad] = useState(view.saved?.transcription?.vad ?? true);
  const [vadThreshold, setVadThreshold] = useState(String(view.saved?.transcription?.vadThreshold ?? 0.5));
  const update = useUpdateSettings();
  useEffect(() => setPort(String(saved.port)), [saved.port]);
  const issues = Object.fromEntries(
    (update.error as { issues?: { path: string; message: string }[] } | null)?.issues?.map((i) => [
      i.path,
      i.message,
    ]) ?? [],
  );
  const bridge = desktop();
  return (
    <Form
      className="stack"
      validationErrors={issues}
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate(
          {
            port: Number(port),
            whisperThreads: Number(threads),
            ...(runningDevice ? { whisperDevice: device } : {}),
            ...(dataDir !== view.running.dataDir ? { dataDir } : {}),
            transcription: { ...view.saved?.transcription, vad, vadThreshold: Number(vadThreshold) },
          },
          { onSuccess: () => toast.success('Settings saved') },
        );
      }}
    >
      <Section title="Server">
        <TextField
          label="Port"
          name="port"
          value={port}
          onChange={setPort}
          inputMode="numeric"
          description={`Running on ${view.running.url}. If the port is taken, Folio picks a free one and shows it here.`}
        />
      </Section>
      <Section title="Storage">
        <TextField
          label="Data folder"
          name="dataDir"
          value={dataDir}
          onChange={setDataDir}
          mono
          description="Assets, transcripts, models and records. Folio does not move existing data."
        />
        {bridge && (
          <div>
            <Button size="sm" icon={<FolderOpen size={14} />} onPress={() => void bridge.revealDataFolder()}>
              Show in file manager
            </Button>
          </div>
        )}
      </Section>
      <Section title="Transcription">
        {runningDevice && <DeviceChoice value={device} onChange={setDevice} running={runningDevice} />}
        <TextField
          label="Whisper threads"
          name="whisperThreads"
          value={threads}
          onChange={setThreads}
          inputMode="numeric"
          description="CPU threads one transcription uses. More is faster until your cores run out."
        />
        <Switch
          isSelected={vad}
          onChange={setVad}
          description="Voice activity detection sends only the speech to Whisper: faster, and no text invented for silence. Applies to new transcripts; an API request may choose otherwise."
        >
          Skip silence
        </Switch>
        <TextField
          label="Speech threshold"
          name="transcription.vadThreshold"
          value={vadThreshold}
          onChange={setVadThreshold}
          inputMode="decimal"
          isDisabled={!vad}
          description="How sure the detector must be that a moment is speech, 0 to 1 (default 0.5). Lower keeps quiet speech; higher drops more noise."
        />
      </Section>
      <div className="row">
        <Button type="submit" variant="primary" isDisabled={update.isPending}>
          Save settings
        </Button>
        {update.isError && !Object.keys(issues).length && (
          <span className="danger small">{update.error.message}</span>
        )}
      </div>
    </Form>
  );
}

/** The device flag and the device Whisper runs on; no rows on a server that reports neither. */
function deviceRows(
  preference: DevicePreference | undefined,
  inUse: string | undefined,
): [string, ReactNode][] {
  const rows: [string, ReactNode][] = [];
  if (preference)
    rows.push([
      'Whisper device',
      <span key="w">
        {PREFERENCE_LABELS[preference]} <span className="faint mono">--whisper-device</span>
      </span>,
    ]);
  if (inUse) rows.push(['Runs on', inUse]);
  return rows;
}
