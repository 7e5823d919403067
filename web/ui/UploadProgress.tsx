/**
 * Picking and sending one file: a drop zone that is also a file picker, the extension check, a
 * progress bar while sending, and the failure with a retry. What is sent and where is the caller's
 * `upload` (usually `lib/upload.ts`); this component does not know plugins, backups or certificates.
 * Example: `<UploadProgress extensions={['tar.gz']} submitText="plugins.install" upload={(f, p, s) => upload('/plugins/install', 'plugin', f, { onProgress: p, signal: s })} onDone={installed} />`.
 */
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../lib/api.ts';
import { errorText, handleError } from '../lib/errors.ts';
import { formatBytes } from '../lib/format.ts';
import { defineMessages, t } from '../lib/i18n.ts';
import { fileExtension } from '../lib/validators.ts';
import { ErrorDetail } from './States.tsx';

defineMessages({
  'upload.drop': { zh: '将文件拖到此处，或点击选择文件（{{extensions}}）', en: 'Drop the file here, or click to choose one ({{extensions}})' },
  'upload.fileFirst': { zh: '请先上传文件', en: 'Please upload the file first' },
  'upload.failed': { zh: '上传失败', en: 'Upload Failed' },
  'upload.uploading': { zh: '正在上传 {{percent}}%', en: 'Uploading {{percent}}%' },
  'upload.retry': { zh: '重新上传', en: 'Retry upload' },
});

type Phase = 'idle' | 'uploading' | 'failed';

export function UploadProgress(props: {
  /** Accepted extensions without the dot, e.g. `['tar.gz']`. */
  extensions: string[];
  upload: (file: File, onProgress: (fraction: number) => void, signal: AbortSignal) => Promise<unknown>;
  /** Runs after a successful upload with the answer and the file. */
  onDone: (result: unknown, file: File) => void;
  /** i18n key of the send button. */
  submitText: string;
  test?: string;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [fraction, setFraction] = useState(0);
  const [reason, setReason] = useState<unknown>(null);
  const [over, setOver] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const test = props.test ?? 'upload';
  const list = props.extensions.map((ext) => `.${ext}`).join(', ');
  // Leaving the page stops a transfer in flight.
  useEffect(() => () => controller.current?.abort(), []);

  const pick = (chosen: File | undefined) => {
    if (!chosen || phase === 'uploading') return;
    const message = fileExtension(props.extensions)(chosen, {});
    setProblem(message ?? '');
    setFile(message ? null : chosen);
    setPhase('idle');
  };

  const send = async () => {
    if (!file) return setProblem(t('upload.fileFirst'));
    controller.current = new AbortController();
    setPhase('uploading');
    setFraction(0);
    try {
      const result = await props.upload(file, setFraction, controller.current.signal);
      setPhase('idle');
      props.onDone(result, file);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ECONNABORTED' && error.message === 'canceled') return;
      setPhase('failed');
      setReason(error);
      // The reason is shown here, under the file; an expired session already went to login
      // (lib/upload.ts). Only what is not an API answer (a bug) also goes to the error toast.
      if (!(error instanceof ApiError)) handleError(error);
    }
  };

  const percent = Math.round(fraction * 100);
  return (
    <div class="upload" data-test={test}>
      <label class={over ? 'drop-zone over' : 'drop-zone'} data-test={`${test}-drop`}
        onDragOver={(e) => (e.preventDefault(), setOver(true))} onDragLeave={() => setOver(false)}
        onDrop={(e) => (e.preventDefault(), setOver(false), pick(e.dataTransfer?.files?.[0]))}>
        <input type="file" accept={list} data-test={`${test}-input`} disabled={phase === 'uploading'}
          onChange={(e) => pick((e.target as HTMLInputElement).files?.[0])} />
        {file
          ? <span data-test={`${test}-file`}><strong>{file.name}</strong> <span class="muted">{formatBytes(file.size)}</span></span>
          : <span class="muted">{t('upload.drop', { extensions: list })}</span>}
      </label>
      <small class="field-error" role="alert" data-test={problem ? `${test}-problem` : undefined}>{problem}</small>
      {phase === 'uploading' && (
        <div class="upload-progress">
          <progress value={percent} max={100} data-test={`${test}-progress`} aria-label={t('upload.uploading', { percent })} />
          <span class="muted">{t('upload.uploading', { percent })}</span>
        </div>
      )}
      {phase === 'failed' && (
        <div role="alert"><p class="field-error" data-test={`${test}-failed`}>{t('upload.failed')}: {errorText(reason)}</p><ErrorDetail error={reason} /></div>
      )}
      <div class="form-actions">
        <button type="button" data-test={`${test}-submit`} aria-busy={phase === 'uploading'} disabled={phase === 'uploading'} onClick={send}>
          {t(phase === 'failed' ? 'upload.retry' : props.submitText)}
        </button>
      </div>
    </div>
  );
}
