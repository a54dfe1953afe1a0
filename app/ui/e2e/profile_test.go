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
// LONGTASK_PROFILE=incl logs, besides, the inclusive time of the page's Go
// functions (eval752, go-app, GC, JSON) in that stretch.
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
	byID := map[int64]*profiler.ProfileNode{}
	parent := map[int64]int64{}
	for _, n := range p.Nodes {
		byID[n.ID] = n
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	name := func(id int64) string {
		n := byID[id]
		if n.CallFrame.FunctionName == "" {
			return "(anon)"
		}
		return n.CallFrame.FunctionName
	}
	// the longest stretch of samples without "(idle)": the longest task
	bestFrom, bestTo, from := 0, 0, -1
	var bestLen, cur float64
	for i, id := range p.Samples {
		if i >= len(p.TimeDeltas) {
			break
		}
		if name(id) == "(idle)" {
			from, cur = -1, 0
			continue
		}
		if from < 0 {
			from = i
		}
		cur += float64(p.TimeDeltas[i]) / 1000
		if cur > bestLen {
			bestLen, bestFrom, bestTo = cur, from, i
		}
	}
	// self time by function, with the Go callers (4 levels) of each
	self := map[string]float64{}
	for i := bestFrom; i <= bestTo && i < len(p.Samples); i++ {
		id := p.Samples[i]
		key := name(id)
		for k, at := 0, parent[id]; k < 6 && at != 0; k, at = k+1, parent[at] {
			key += " < " + name(at)
		}
		self[key] += float64(p.TimeDeltas[i]) / 1000
	}
	b.t.Logf("profile of %s: longest busy stretch %.0f ms; self time there:%s", label, bestLen, longest(self, 25, nil))
	if os.Getenv("LONGTASK_PROFILE") == "incl" {
		incl := map[string]float64{}
		for i := bestFrom; i <= bestTo && i < len(p.Samples); i++ {
			seen := map[string]bool{}
			for at := p.Samples[i]; at != 0; at = parent[at] {
				k := name(at)
				if !seen[k] {
					seen[k] = true
					incl[k] += float64(p.TimeDeltas[i]) / 1000
				}
			}
		}
		ours := func(k string) bool {
			return strings.Contains(k, "eval752") || strings.Contains(k, "go_app") || strings.Contains(k, "gc") || strings.Contains(k, "json")
		}
		b.t.Logf("inclusive:%s", longest(incl, 60, ours))
	}
}

// longest lists the n largest times of ms (those keep accepts; all when
// keep is nil), one "\n  12.3 ms  name" line each, largest first.
func longest(ms map[string]float64, n int, keep func(string) bool) string {
	type kv struct {
		k string
		v float64
	}
	var all []kv
	for k, v := range ms {
		if keep == nil || keep(k) {
			all = append(all, kv{k, v})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v > all[j].v })
	var sb strings.Builder
	for i, e := range all {
		if i == n {
			break
		}
		fmt.Fprintf(&sb, "\n  %8.1f ms  %s", e.v, e.k)
	}
	return sb.String()
}
