/**
 * The topic panel's derived views: the line diff of the last two JSON payloads, and a chart of the
 * payload's value or of a numeric JSON field the operator picks (frappe-charts loads lazily).
 */
import { useMemo, useState } from 'react';
import { formatDateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.ts';
import { Chart } from '../../../ui/Chart.tsx';
import { SelectInput } from '../websocket/inputs.tsx';
import { jsonDiff, jsonOf, numberOf, numericFields } from './analysis.ts';
import type { TopicMessage } from './tree.ts';

function Diff({ history }: { history: readonly TopicMessage[] }) {
  const last = history[history.length - 1];
  const diff = useMemo(() => jsonDiff(history), [last]);
  return (
    <section>
      <h4>{t('explorer.diff')}</h4>
      {typeof diff === 'string'
        ? <p class="muted" data-test="explorer-diff-none">{t(diff === 'none' ? 'explorer.noDiff' : 'explorer.diffTooLarge')}</p>
        : !diff.some((l) => l.kind !== ' ')
          ? <p class="muted" data-test="explorer-diff-same">{t('explorer.same')}</p>
          : (
            <pre class="tx-diff" data-test="explorer-diff">
              {diff.map((line, i) => <div key={i} class={line.kind === '+' ? 'tx-add' : line.kind === '-' ? 'tx-del' : ''} data-kind={line.kind}>{`${line.kind} ${line.text}`}</div>)}
            </pre>
          )}
    </section>
  );
}

export function Insights({ history }: { history: readonly TopicMessage[] }) {
  const last = history[history.length - 1];
  const fields = useMemo(() => {
    const json = jsonOf(last);
    return json ? (typeof json.value === 'number' ? [''] : numericFields(json.value)) : [];
  }, [last]);
  const [picked, setPicked] = useState<string | null>(null);
  const field = picked !== null && fields.includes(picked) ? picked : fields[0];
  const data = useMemo(() => {
    if (field === undefined) return null;
    const points = history.map((m) => [m, numberOf(m, field)] as const).filter(([, v]) => v !== null);
    return { labels: points.map(([m]) => formatDateTime(m.time).slice(-8)), series: [{ name: field || t('explorer.wholePayload'), values: points.map(([, v]) => v!) }] };
  }, [last, field]);

  return (
    <>
      <Diff history={history} />
      <section data-test="explorer-chart-section">
        <h4>{t('explorer.chart')}</h4>
        {!data
          ? <p class="muted" data-test="explorer-no-numbers">{t('explorer.noNumbers')}</p>
          : (
            <>
              {fields[0] !== '' && (
                <SelectInput name="explorerField" label="explorer.field" value={field!} options={fields.map((f) => ({ value: f, label: f }))} onChange={setPicked} />
              )}
              <p class="muted tx-values" data-test="explorer-chart-values">{data.series[0].values.slice(-10).join(' · ')}</p>
              <Chart labels={data.labels} series={data.series} height={180} test="explorer-chart" />
            </>
          )}
      </section>
    </>
  );
}
