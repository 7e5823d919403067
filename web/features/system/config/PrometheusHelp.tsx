/**
 * The Prometheus setup help: from the Pushgateway address, the broker's service address and the
 * metrics API path it prints a scrape config ready to paste into prometheus.yml. Text only.
 */
import { useState } from 'react';
import { t } from '../../../lib/i18n.ts';
import './messages.ts';

/** The `scrape_configs` block for the broker's stats endpoint and, if given, the Pushgateway. */
export function scrapeConfig(input: { pushgateway: string; service: string; path: string }): string {
  const target = (address: string) => address.trim().replace(/^https?:\/\//, '').replace(/\/+$/, '');
  const scheme = /^https:/.test(input.service.trim()) ? 'https' : 'http';
  const lines = [
    'scrape_configs:',
    "  - job_name: 'emqx_stats'",
    `    metrics_path: '${input.path.trim() || '/api/v5/prometheus/stats'}'`,
    `    scheme: '${scheme}'`,
    '    static_configs:',
    `      - targets: ['${target(input.service) || '127.0.0.1:18083'}']`,
  ];
  if (input.pushgateway.trim()) {
    lines.push("  - job_name: 'pushgateway'", '    honor_labels: true', '    static_configs:', `      - targets: ['${target(input.pushgateway)}']`);
  }
  return lines.join('\n');
}

export default function PrometheusHelp() {
  const [input, setInput] = useState({ pushgateway: 'http://127.0.0.1:9091', service: `${location.hostname || '127.0.0.1'}:18083`, path: '/api/v5/prometheus/stats' });
  const [output, setOutput] = useState('');
  const field = (key: keyof typeof input, label: string) => (
    <label>
      {t(label)}
      <input type="text" value={input[key]} data-test={`prometheus-help-${key}`}
        onInput={(e) => setInput({ ...input, [key]: (e.target as HTMLInputElement).value })} />
    </label>
  );
  return (
    <details class="help-generator" data-test="prometheus-help">
      <summary>{t('config.helpGenerator')}</summary>
      <div class="grid">
        {field('pushgateway', 'config.pushgatewayAddress')}
        {field('service', 'config.serviceAddress')}
        {field('path', 'config.metricsPath')}
      </div>
      <button type="button" class="secondary" data-test="prometheus-help-generate" onClick={() => setOutput(scrapeConfig(input))}>{t('config.generate')}</button>
      {output && <><p class="muted">{t('config.scrapeConfig')}</p><pre class="mono" data-test="prometheus-help-output">{output}</pre></>}
    </details>
  );
}
