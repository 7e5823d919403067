/**
 * Counters grouped in small tables, e.g. EMQX metrics by prefix (packets, messages, bytes …).
 * A group takes the keys starting with one of its prefixes; the label is the key itself,
 * which is what operators search for in EMQX's documentation.
 */
import { formatNumber } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';

export interface MetricGroup {
  /** i18n key of the group title. */
  title: string;
  prefixes: string[];
}

export function MetricsPanel({ metrics, groups }: { metrics: Record<string, unknown>; groups: MetricGroup[] }) {
  return (
    <div class="metrics-panel">
      {groups.map((group) => {
        const keys = Object.keys(metrics).filter((k) => typeof metrics[k] === 'number' && group.prefixes.some((p) => k.startsWith(p))).sort();
        if (keys.length === 0) return null;
        return (
          <article key={group.title} class="metric-group" data-test={`metrics-${group.title}`}>
            <h4>{t(group.title)}</h4>
            <table>
              <tbody>
                {keys.map((k) => <tr key={k}><td>{k}</td><td class="num">{formatNumber(metrics[k] as number)}</td></tr>)}
              </tbody>
            </table>
          </article>
        );
      })}
    </div>
  );
}
