// http_request_duration_seconds, kept by hand instead of prom-client's Histogram: that one hashes
// the label set on every observation, on every request; this costs one string key and a Map lookup
// (docs/performance.md, "Why the hot paths look this way").
// It exposes the same shape prom-client's registry reads from its own metrics (`get()`).

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const LE = [...BUCKETS.map(String), '+Inf']

interface Series {
  labels: { method: string; route: string; status: string }
  /** Observations per bucket (not cumulative); the last is above every bound. */
  counts: number[]
  sum: number
}

export class RequestHistogram {
  readonly name = 'http_request_duration_seconds'
  readonly help = 'HTTP requests by route template and status; _count is the request count'
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  private readonly series = new Map<string, Series>()

  observe(method: string, route: string, status: number, seconds: number) {
    const key = `${method} ${status} ${route}`
    let s = this.series.get(key)
    if (!s) {
      s = { labels: { method, route, status: String(status) }, counts: new Array(LE.length).fill(0), sum: 0 }
      this.series.set(key, s)
    }
    let i = 0
    while (i < BUCKETS.length && seconds > BUCKETS[i]) i++
    s.counts[i]++
    s.sum += seconds
  }

  /** What prom-client's registry serialises: cumulative buckets, _sum and _count per series. */
  async get() {
    const values: Array<{ metricName: string; labels: Record<string, string>; value: number }> = []
    for (const s of this.series.values()) {
      let total = 0
      s.counts.forEach((n, i) => {
        total += n
        values.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le: LE[i] }, value: total })
      })
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum })
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: total })
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values }
  }

  reset() {
    this.series.clear()
  }
}
