//go:build !js

package e2e

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// profiled runs act under the page's CPU profiler when LONGTASK_PROFILE is
// set, and logs the functions with the most self time (a diagnosis aid for
// the long-task probe; an unstripped app.wasm names its Go functions).
func (b *browser) profiled(label string, act func()) {
	if os.Getenv("LONGTASK_PROFILE") == "" {
		act()
		return
	}
	b.t.Helper()
	if _, err := chromedp.Call(b.ctx, profiler.Enable, cdp.Empty{}); err != nil {
		b.t.Fatal(err)
	}
	chromedp.Call(b.ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 1000})
	if _, err := chromedp.Call(b.ctx, profiler.Start, cdp.Empty{}); err != nil {
		b.t.Fatal(err)
	}
	act()
	res, err := chromedp.Call(b.ctx, profiler.Stop, cdp.Empty{})
	if err != nil {
		b.t.Fatal(err)
	}
	p := res.Profile
	self := map[string]float64{}
	byID := map[int64]*profiler.ProfileNode{}
	for _, n := range p.Nodes {
		byID[n.ID] = n
	}
	for i, id := range p.Samples {
		if i < len(p.TimeDeltas) {
			n := byID[id]
			name := n.CallFrame.FunctionName
			if name == "" {
				name = "(anon " + n.CallFrame.URL + ")"
			}
			self[name] += float64(p.TimeDeltas[i]) / 1000
		}
	}
	type kv struct {
		k string
		v float64
	}
	var all []kv
	for k, v := range self {
		all = append(all, kv{k, v})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v > all[j].v })
	var sb strings.Builder
	for i, e := range all {
		if i == 30 {
			break
		}
		fmt.Fprintf(&sb, "\n  %8.1f ms  %s", e.v, e.k)
	}
	b.t.Logf("profile of %s (self time):%s", label, sb.String())
}
