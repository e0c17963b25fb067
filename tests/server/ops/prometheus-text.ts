// Reading the Prometheus text exposition and PromQL expressions, as far as the metric tests need: the families a
// scrape declares, its samples with their labels, and the metric and label names an expression refers to.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  /** Family name → type, from the `# TYPE` lines. */
  families: Map<string, string>;
  samples: Sample[];
}

const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseScrape(text: string): Scrape {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) families.set(type[1]!, type[2]!);
    if (line === '' || line.startsWith('#')) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (sample[3] ?? '').matchAll(LABEL)) labels[name!] = value!;
    samples.push({ name: sample[1]!, labels, value: Number(sample[4]) });
  }
  return { families, samples };
}

/** The family a sample belongs to: a histogram's _bucket, _sum and _count samples belong to the histogram. */
export function familyOf(sample: string, families: ReadonlyMap<string, string>): string | null {
  if (families.has(sample)) return sample;
  const base = sample.replace(/_(bucket|sum|count)$/, '');
  return families.get(base) === 'histogram' || families.get(base) === 'summary' ? base : null;
}

export function sum(scrape: Scrape, name: string, where: Record<string, string> = {}): number {
  return scrape.samples
    .filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);
}

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
  'inf',
  'nan',
]);

/** The metric names an expression selects, and the label names it filters or groups by (per metric or overall). */
export function promqlReferences(expr: string): { metrics: string[]; labels: string[] } {
  const labels: string[] = [];
  let text = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  text = text.replace(/\{([^}]*)\}/g, (_m, inside: string) => {
    for (const [, name] of inside.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)/g)) labels.push(name!);
    return ' ';
  });
  text = text.replace(/\b(by|without|on|ignoring)\s*\(([^)]*)\)/g, (_m, _w, inside: string) => {
    for (const name of inside
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean))
      labels.push(name);
    return ' ';
  });
  text = text.replace(/\[[^\]]*\]/g, ' ');
  const metrics = [...text.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter(([, name, call]) => !call && !PROMQL_WORDS.has(name!.toLowerCase()))
    .map(([, name]) => name!);
  return { metrics, labels };
}
