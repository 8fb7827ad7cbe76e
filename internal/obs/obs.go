// Package obs holds the server's Prometheus metrics: it implements the
// observer interfaces of the web layer (web.Observer) and of the live
// tables (table.Observer), times database writes, and serves /metrics.
// The packages that produce the figures do not import Prometheus.
package obs

import (
	"cmp"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics is one server's collectors, in a registry of their own.
type Metrics struct {
	reg *prometheus.Registry

	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	websockets  prometheus.Gauge
	actions     prometheus.Counter
	broadcast   prometheus.Histogram
	dbWrites    *prometheus.HistogramVec
	botThink    *prometheus.HistogramVec
	rateLimited prometheus.Counter
	unreadable  prometheus.Counter
}

// Gauges are figures read when /metrics is scraped; nil ones are left out.
// Version and Commit label cardtable_build_info ("unknown" if empty).
type Gauges struct {
	Version, Commit string

	// Tables is the Arlington tables this server holds: open (waiting
	// for people or in play) and over (finished, still listed until
	// they close).
	Tables func() (open, over int)
	// Cache is the Spider games held in memory: their estimated bytes
	// and their count; CacheBudget is the bound on those bytes.
	Cache       func() (bytes, games int)
	CacheBudget func() int
	// DBPool is the database's connection pool (PostgreSQL; nil on
	// SQLite): the connections in use, the most it opens, and the time
	// requests have waited for one, in all, since the start.
	DBPool func() (inUse, most int, waited time.Duration)
	// DBRefused is how many calls the pool refused since the start
	// because no connection was free within its wait (PostgreSQL).
	DBRefused func() int64
}

// latency buckets: 100 µs to about 6.5 s.
var latency = prometheus.ExponentialBuckets(0.0001, 2, 17)

// New makes the collectors, with the process's and Go runtime's own.
func New(g Gauges) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.registerCounted()
	m.registerBuild(g)
	m.registerGauges(g)
	return m
}

// registerCounted registers what this package counts itself, as the
// server reports each event, with the process's and Go runtime's own.
func (m *Metrics) registerCounted() {
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "cardtable_http_requests_total",
		Help: "HTTP requests by route pattern and status.",
	}, []string{"route", "code"})
	m.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "cardtable_http_request_duration_seconds", Help: "HTTP request time by route pattern (a WebSocket's whole life).",
		Buckets: latency,
	}, []string{"route"})
	m.websockets = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "cardtable_websocket_connections", Help: "Open WebSocket connections.",
	})
	m.actions = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "cardtable_arlington_actions_total", Help: "Arlington actions applied (rate() gives actions per second).",
	})
	m.broadcast = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "cardtable_arlington_action_broadcast_seconds",
		Help:    "Time from an Arlington action's arrival to its update queued for every connection (the store write included).",
		Buckets: latency,
	})
	m.dbWrites = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "cardtable_db_write_seconds", Help: "Database write time by operation.", Buckets: latency,
	}, []string{"op"})
	m.botThink = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "cardtable_bot_think_seconds", Help: "Time a bot took to choose an action, by level.",
		Buckets: prometheus.ExponentialBuckets(0.0001, 2, 18),
	}, []string{"level"})
	m.rateLimited = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "cardtable_rate_limit_refusals_total", Help: "Requests refused by the rate limit.",
	})
	m.unreadable = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "cardtable_arlington_unreadable_tables_total",
		Help: "Stored Arlington tables found that cannot be replayed here (damaged, or from a newer version), each counted once.",
	})
	m.reg.MustRegister(m.requests, m.duration, m.websockets, m.actions, m.broadcast, m.dbWrites, m.botThink,
		m.rateLimited, m.unreadable, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
}

// registerBuild registers the running build's version and commit.
func (m *Metrics) registerBuild(g Gauges) {
	version, commit := cmp.Or(g.Version, "unknown"), cmp.Or(g.Commit, "unknown")
	info := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "cardtable_build_info", Help: "The running build: always 1, its version and commit as labels.",
		ConstLabels: prometheus.Labels{"version": version, "commit": commit},
	})
	info.Set(1)
	m.reg.MustRegister(info)
}

// registerGauges registers the gauges read from the server's parts at
// each scrape, those g gives.
func (m *Metrics) registerGauges(g Gauges) {
	if g.Tables != nil {
		// live_tables, the sum, keeps its name for the dashboards that
		// read it; its old help ("Live Arlington tables") hid that
		// finished tables count in it.
		m.reg.MustRegister(readTogether{
			descs: []*prometheus.Desc{
				prometheus.NewDesc("cardtable_arlington_live_tables",
					"Arlington tables this server holds, finished ones not yet closed included (open_tables + finished_tables).", nil, nil),
				prometheus.NewDesc("cardtable_arlington_open_tables", "Arlington tables waiting for people or in play.", nil, nil),
				prometheus.NewDesc("cardtable_arlington_finished_tables", "Arlington tables whose game is over, still listed until they close.", nil, nil),
			},
			read: func() []float64 {
				open, over := g.Tables()
				return []float64{float64(open + over), float64(open), float64(over)}
			},
		})
	}
	if g.Cache != nil {
		m.reg.MustRegister(readTogether{
			descs: []*prometheus.Desc{
				prometheus.NewDesc("cardtable_spider_cache_bytes", "Estimated memory of the Spider games held in memory.", nil, nil),
				prometheus.NewDesc("cardtable_spider_cache_games", "Spider games held in memory.", nil, nil),
			},
			read: func() []float64 { b, n := g.Cache(); return []float64{float64(b), float64(n)} },
		})
	}
	if g.CacheBudget != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "cardtable_spider_cache_budget_bytes",
			Help: "The bound on cardtable_spider_cache_bytes: least recently used games leave memory past it.",
		}, func() float64 { return float64(g.CacheBudget()) }))
	}
	if g.DBPool != nil {
		m.reg.MustRegister(poolCollector(g.DBPool))
	}
	if g.DBRefused != nil {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "cardtable_db_connection_refused_total",
			Help: "Calls refused because no connection of the database pool was free within its wait: requests (503), live tables' writes (refused to the player) and the server's own table checks.",
		}, func() float64 { return float64(g.DBRefused()) }))
	}
}

// poolCollector reads the connection pool once a scrape. Decision: a
// pool whose every connection is taken by requests waiting on PostgreSQL
// (a lock held, a slow database) showed nowhere in /metrics; in_use at
// max and the wait's rate rising say it.
type poolCollector func() (inUse, most int, waited time.Duration)

var (
	poolInUse = prometheus.NewDesc("cardtable_db_connections_in_use",
		"Connections of the database pool in use now (PostgreSQL).", nil, nil)
	poolMax = prometheus.NewDesc("cardtable_db_connections_max",
		"The most connections the database pool opens (pool_max_conns).", nil, nil)
	poolWait = prometheus.NewDesc("cardtable_db_connection_wait_seconds_total",
		"Time requests waited for a connection of the database pool, all together.", nil, nil)
)

func (p poolCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- poolInUse
	ch <- poolMax
	ch <- poolWait
}

func (p poolCollector) Collect(ch chan<- prometheus.Metric) {
	inUse, most, waited := p()
	ch <- prometheus.MustNewConstMetric(poolInUse, prometheus.GaugeValue, float64(inUse))
	ch <- prometheus.MustNewConstMetric(poolMax, prometheus.GaugeValue, float64(most))
	ch <- prometheus.MustNewConstMetric(poolWait, prometheus.CounterValue, waited.Seconds())
}

// readTogether is gauges read by one call of read per scrape, read's
// figures in descs' order: the tables are listed (the cache counted)
// once, not once a gauge, and the figures agree with each other.
type readTogether struct {
	descs []*prometheus.Desc
	read  func() []float64
}

func (r readTogether) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range r.descs {
		ch <- d
	}
}

func (r readTogether) Collect(ch chan<- prometheus.Metric) {
	for i, v := range r.read() {
		ch <- prometheus.MustNewConstMetric(r.descs[i], prometheus.GaugeValue, v)
	}
}

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Request implements web.Observer.
func (m *Metrics) Request(pattern string, status int, d time.Duration) {
	if pattern == "" {
		pattern = "none"
	}
	m.requests.WithLabelValues(pattern, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(pattern).Observe(d.Seconds())
}

// WebSocket implements web.Observer.
func (m *Metrics) WebSocket(delta int) { m.websockets.Add(float64(delta)) }

// RateLimited implements web.Observer.
func (m *Metrics) RateLimited() { m.rateLimited.Inc() }

// Acted implements table.Observer.
func (m *Metrics) Acted(d time.Duration) {
	m.actions.Inc()
	m.broadcast.Observe(d.Seconds())
}

// UnreadableTable implements table.Observer.
func (m *Metrics) UnreadableTable() { m.unreadable.Inc() }

// BotThought implements table.Observer.
func (m *Metrics) BotThought(level string, d time.Duration) {
	m.botThink.WithLabelValues(level).Observe(d.Seconds())
}

// DBWrite records one database write of kind op that took d.
func (m *Metrics) DBWrite(op string, d time.Duration) {
	m.dbWrites.WithLabelValues(op).Observe(d.Seconds())
}
