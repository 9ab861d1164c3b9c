// The Grafana dashboard and the Prometheus alert rules in docs/ stay true to what /metrics exports: both parse,
// every PromQL expression in them names only series the service has (a renamed metric breaks this test, not an
// operator's dashboard), and every vitae_ series has a place on the dashboard.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { exportedMetricNames } from './metrics.server.ts';

const docs = new URL('../../docs/', import.meta.url);

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Array<{ expr: string; refId: string }>;
  panels?: Panel[];
}
interface Dashboard {
  title: string;
  uid: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string; query?: unknown }> };
}
interface RuleFile {
  groups: Array<{ name: string; rules: Array<{ alert: string; expr: string; for?: string; labels: { severity: string }; annotations: { summary: string } }> }>;
}

const dashboard = JSON.parse(readFileSync(new URL('grafana-dashboard.json', docs), 'utf8')) as Dashboard;
const rules = parse(readFileSync(new URL('prometheus-alerts.yml', docs), 'utf8')) as RuleFile;
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);

const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset', 'Inf', 'NaN']);

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges, grouping
 * label lists, offsets and numbers are taken out, less functions (a name before "(") and keywords.
 */
function metricNamesOf(expr: string): string[] {
  const left = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\boffset\s+-?[\w.]+/g, ' ')
    .replace(/(?<![\w:])\d+(\.\d+)?(e[+-]?\d+)?/gi, ' ');
  return [...left.matchAll(/[a-zA-Z_:][\w:]*/g)]
    .filter((match) => !KEYWORDS.has(match[0]) && !/^\s*\(/.test(left.slice(match.index + match[0].length)))
    .map((match) => match[0]);
}

const balanced = (expr: string) => {
  let depth = 0;
  for (const c of expr.replace(/"(?:[^"\\]|\\.)*"/g, '')) {
    if ('({['.includes(c)) depth++;
    else if (')}]'.includes(c) && --depth < 0) return false;
  }
  return depth === 0;
};

const dashboardExprs = panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr })));
const variableExprs = dashboard.templating.list
  .filter((variable) => variable.type === 'query')
  .map((variable) => {
    const query = variable.query as { query?: string } | string;
    // label_values(metric, label): only its first argument is a metric.
    const text = typeof query === 'string' ? query : (query.query ?? '');
    return { where: `variable $${variable.name}`, expr: /^label_values\(([^,)]+)/.exec(text)?.[1] ?? text };
  });
const ruleExprs = rules.groups.flatMap((group) => group.rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })));

describe('reading PromQL for metric names', () => {
  it('finds the metrics and leaves out functions, labels, ranges, numbers and keywords', () => {
    assert.deepEqual(
      metricNamesOf(
        'histogram_quantile(0.95, sum by (route, le) (rate(a_bucket{route!~"/x|/y"}[$__rate_interval]))) > 1.5e9 and on (instance) b_total offset 5m',
      ),
      ['a_bucket', 'b_total'],
    );
  });
});

describe('docs/grafana-dashboard.json', () => {
  it('parses as a dashboard whose panels each have a unique id, a place on the grid and the templated data source', () => {
    assert.equal(dashboard.uid, 'vitae-service');
    const ids = panels.map((panel) => panel.id);
    assert.equal(new Set(ids).size, ids.length, 'panel ids are unique');
    for (const panel of panels) {
      assert.ok(panel.gridPos.w > 0 && panel.gridPos.h > 0 && panel.gridPos.x + panel.gridPos.w <= 24, `${panel.title}: on the 24-column grid`);
      if (panel.type !== 'row') assert.ok(panel.targets?.length, `${panel.title}: has a query`);
    }
    assert.ok(
      dashboard.templating.list.some((variable) => variable.type === 'datasource'),
      'the data source is chosen at import',
    );
  });

  it('shows each series the service exports under vitae_ on some panel', async () => {
    const shown = new Set(dashboardExprs.flatMap(({ expr }) => metricNamesOf(expr)).map(family));
    const families = new Set([...(await exportedMetricNames())].filter((name) => name.startsWith('vitae_')).map(family));
    assert.deepEqual(
      [...families].filter((name) => !shown.has(name)),
      [],
    );
  });
});

describe('docs/prometheus-alerts.yml', () => {
  it('parses as rule groups whose alerts each have an expression, a severity and a summary', () => {
    assert.ok(rules.groups.length > 0);
    for (const rule of rules.groups.flatMap((group) => group.rules)) {
      assert.match(rule.alert, /^Vitae[A-Z]\w+$/);
      assert.ok(rule.expr.trim(), rule.alert);
      assert.ok(['critical', 'warning', 'info'].includes(rule.labels.severity), rule.alert);
      assert.ok(rule.annotations.summary, rule.alert);
    }
    const alerts = rules.groups.flatMap((group) => group.rules.map((rule) => rule.alert));
    for (const needed of ['VitaeHighErrorRate', 'VitaeSlowResponses', 'VitaePublishFailing', 'VitaeModelErrors', 'VitaeEventLoopLag', 'VitaeMemoryHigh'])
      assert.ok(alerts.includes(needed), needed);
  });
});

describe('PromQL in docs/', () => {
  it('names only metrics /metrics exports, in balanced expressions', async () => {
    const exported = await exportedMetricNames();
    for (const { where, expr } of [...dashboardExprs, ...variableExprs, ...ruleExprs]) {
      assert.ok(balanced(expr), `${where}: unbalanced brackets in ${expr}`);
      const names = metricNamesOf(expr);
      assert.ok(names.length > 0, `${where}: reads no metric (${expr})`);
      for (const name of names) assert.ok(exported.has(name), `${where}: ${name} is not exported by /metrics`);
    }
  });
});

/** A series' family: a histogram's samples without their suffix. */
function family(name: string): string {
  return name.replace(/_(bucket|sum|count)$/, '');
}
