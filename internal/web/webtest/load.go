package webtest

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Load is what a page's load cost on a slow network: every request (name,
// bytes over the wire, body bytes, start and end in ms), when the first
// paint came and when the page was ready (ms), as LoadScript reads them.
type Load struct {
	Requests []struct {
		Name           string
		Transfer, Body float64
		Start, End     float64
	}
	Paint, Ready float64
}

// LoadScript is the page's expression for a Load, its Ready read by the
// expression ready (e.g. "performance.now()").
func LoadScript(ready string) string {
	return `(() => ({
  Requests: performance.getEntriesByType("resource").map((e) => ({Name: e.name.replace(location.origin, ""),
    Transfer: e.transferSize, Body: e.encodedBodySize, Start: Math.round(e.startTime), End: Math.round(e.responseEnd)})),
  Paint: (performance.getEntriesByName("first-contentful-paint")[0] || {startTime: -1}).startTime,
  Ready: ` + ready + `}))()`
}

// SlowNetwork: 400 kbit/s each way, 400 ms from request to answer.
func SlowNetwork() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Latency: 400, DownloadThroughput: 50000, UploadThroughput: 50000}}})
		return err
	})
}

// ClearCache empties the browser's cache, so that the next load is a
// first visit.
func ClearCache() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.ClearBrowserCache, cdp.Empty{})
		return err
	})
}

// LoadSum adds up the Loads of a kind of visit over a benchmark's loop.
type LoadSum struct {
	n                                  int
	requests, wire, body, paint, ready float64
}

// Add counts got, logging its requests (seen with -v).
func (s *LoadSum) Add(b *testing.B, visit string, got Load) {
	b.Helper()
	s.n++
	s.requests += float64(len(got.Requests))
	for _, r := range got.Requests {
		b.Logf("%s visit: %-28s %6.0f B wire %6.0f B body  %5.0f-%5.0f ms", visit, r.Name, r.Transfer, r.Body, r.Start, r.End)
		s.wire += r.Transfer
		s.body += r.Body
	}
	s.paint += got.Paint
	s.ready += got.Ready
}

// Report gives the means, the time to ready as metric "visit-ready"; the
// loop's own time (two loads and the cache emptied) is not a figure
// anyone reads, so ns/op is left out.
func (s *LoadSum) Report(b *testing.B, visit, ready string) {
	n := float64(s.n)
	b.ReportMetric(s.requests/n, visit+"-requests")
	b.ReportMetric(s.wire/n, visit+"-wire-B")
	b.ReportMetric(s.body/n, visit+"-body-B")
	b.ReportMetric(s.paint/n, visit+"-paint-ms")
	b.ReportMetric(s.ready/n, visit+"-"+ready+"-ms")
	b.ReportMetric(0, "ns/op")
}
