//go:build !js

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"eval752/app/report"
)

// The tests in this file drive the page only through the documented
// automation hooks (docs/ui.md): data-test="file-input", "demo-button",
// "status", "count-error", "count-warning", "finding" rows (data-code,
// data-path, data-line) and "metric" cells (data-metric, data-stratum,
// data-value). No tab is clicked, no internal class or attribute is read:
// this is what an outside black-box check can do. Every expected value comes
// from the CLI (`validate --json`, `score --json`) on the same file.

// hookStatus is the text of data-test=status ("" while it does not exist).
func (b *browser) hookStatus() string {
	return eval[string](b, `((document.querySelector('[data-test=status]')||{}).dataset||{}).state||""`)
}

// waitHookReady polls data-test=status until it reads "ready"; "error"
// fails at once.
func (b *browser) waitHookReady(timeout time.Duration) {
	b.t.Helper()
	b.waitJS(`(() => { const s = ((document.querySelector('[data-test=status]')||{}).dataset||{}).state;
		if (s === 'error') throw new Error('status error');
		return s === 'ready'; })()`, timeout)
}

// holdAppWasm makes Chromium pause the page's request for app.wasm, so the
// page certainly stays in its server-rendered "starting" state (elements
// present, UI not running) until release is called.
func holdAppWasm(t *testing.T, b *browser) (release func()) {
	t.Helper()
	paused := make(chan fetch.RequestID, 16)
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			select {
			case paused <- e.RequestID:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, fetch.Enable, fetch.EnableParams{
		Patterns: []*fetch.RequestPattern{{URLPattern: "*/web/app.wasm"}}}); err != nil {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		select {
		case id := <-paused:
			if _, err := chromedp.Call(b.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil {
				t.Fatal(err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the page never requested app.wasm")
		}
		if _, err := chromedp.Call(b.ctx, fetch.Disable, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
		// Any further paused request (none expected) goes on too.
		for {
			select {
			case id := <-paused:
				chromedp.Call(b.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
			default:
				return
			}
		}
	}
}

// checkHooks compares what the hooks show with the CLI on file: the error
// and warning counts, the finding rows (the first page, 300 rows, of the
// CLI's findings) and, when withScores, the data-test=metric cells (every
// figure of `score --json` that names a metric, by metric, stratum and full
// precision value). No tab is opened first: the rows and cells must be in
// the DOM at "ready".
func checkHooks(t *testing.T, b *browser, file string, withScores bool) {
	t.Helper()
	v := cliValidate(t, file)
	e, w := b.counts()
	if e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("hooks: count-error=%d count-warning=%d, CLI validate --json error=%d warning=%d", e, w, v.Counts.Error, v.Counts.Warning)
	}
	var want []string
	for _, f := range v.Findings {
		want = append(want, f.Code+"|"+f.Path+"|"+strconv.Itoa(f.Line))
	}
	got := eval[[]string](b, `[...document.querySelectorAll('[data-test=finding]')].map(e => e.dataset.code + '|' + e.dataset.path + '|' + e.dataset.line)`)
	sort.Strings(want)
	sort.Strings(got)
	const page = 300 // the findings view's page (docs/ui.md)
	switch {
	case len(want) <= page:
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("hooks: finding rows differ from the CLI's findings:\npage %d: %v\nCLI  %d: %v", len(got), got, len(want), want)
		}
	default:
		if len(got) != page {
			t.Errorf("hooks: %d finding rows, want the first page of %d", len(got), page)
		}
		if missing := notIn(got, want); len(missing) > 0 {
			t.Errorf("hooks: finding rows not among the CLI's findings: %v", missing)
		}
	}
	if !withScores {
		return
	}
	var rep report.Report
	if err := json.Unmarshal(cli(t, file, "score", "--json"), &rep); err != nil {
		t.Fatalf("score --json: %v", err)
	}
	var wantCells []string
	for _, s := range rep.Sections {
		for _, tb := range s.Tables {
			for _, row := range tb.Rows {
				for j, c := range row {
					if j >= len(tb.Columns) || c.Metric == "" {
						continue
					}
					val := ""
					if c.Value != nil {
						val = formatG(*c.Value)
					}
					wantCells = append(wantCells, c.Metric+"|"+c.Stratum+"|"+val)
				}
			}
		}
	}
	// data-stratum and data-value are absent when empty (no stratum, a
	// figure without a value: null in score --json); data-metric never is.
	cells := eval[[][]string](b, `[...document.querySelectorAll('[data-test=metric]')].map(e => [
		e.dataset.metric || '<no data-metric>', e.dataset.stratum || '', e.dataset.value || ''])`)
	var gotCells []string
	for _, c := range cells {
		if c[0] == "<no data-metric>" {
			t.Errorf("hooks: a data-test=metric cell without data-metric: %q", c)
		}
		gotCells = append(gotCells, strings.Join(c, "|"))
	}
	if len(wantCells) == 0 {
		t.Fatal("score --json has no metric cell: the comparison would prove nothing")
	}
	sort.Strings(wantCells)
	sort.Strings(gotCells)
	if len(gotCells) != len(wantCells) {
		t.Errorf("hooks: %d data-test=metric cells, score --json has %d metric cells", len(gotCells), len(wantCells))
	}
	if m := notIn(wantCells, gotCells); len(m) > 0 {
		t.Errorf("hooks: %d metric cells of score --json missing on the page, e.g. %v", len(m), m[:min(len(m), 5)])
	}
	if m := notIn(gotCells, wantCells); len(m) > 0 {
		t.Errorf("hooks: %d data-test=metric cells not in score --json, e.g. %v", len(m), m[:min(len(m), 5)])
	}
}

// notIn returns the elements of a (sorted) not matched one to one in b
// (sorted): multiset difference a − b.
func notIn(a, b []string) []string {
	var out []string
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			j++
			continue
		}
		out = append(out, x)
	}
	return out
}

// TestEarlyActions: while the page is still starting (server-rendered,
// app.wasm held back by the test) there is no file input and no demo button
// to race with — go-app replaces the pre-rendered DOM when it mounts — so a
// test's upload or click waits for the real control; a drop on the page in
// that window is kept (static/hooks.js) and run when the UI mounts. Each
// ends "ready" with the CLI's counts, findings and every metric of the demo.
func TestEarlyActions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		early bool // the action happens before the UI runs
		act   func(t *testing.T, b *browser)
	}{
		{"file-input", false, func(t *testing.T, b *browser) { b.upload(env.demo) }},
		{"demo-button", false, func(t *testing.T, b *browser) { b.click(`[data-test=demo-button]`) }},
		{"drop", true, func(t *testing.T, b *browser) {
			// A real drag and drop dispatched by Chromium's input pipeline
			// inside the drop zone.
			box := eval[[]float64](b, `(() => { const r = document.querySelector('.drop').getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`)
			data := &input.DragData{Items: []*input.DragDataItem{}, Files: []string{env.demo}, DragOperationsMask: 1}
			for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
				if _, err := chromedp.Call(b.ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: box[0], Y: box[1], Data: data}); err != nil {
					t.Fatalf("%s: %v", typ, err)
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowser(t)
			release := holdAppWasm(t, b)
			b.do(chromedp.Navigate(env.baseURL + "/"))
			b.waitJS(`!!document.querySelector('[data-test=status]')`, 10*time.Second)
			if s := b.hookStatus(); s != "starting" {
				t.Fatalf("status %q before the UI runs, want starting", s)
			}
			if eval[bool](b, `!!document.querySelector('[data-test=file-input], [data-test=demo-button]')`) {
				t.Fatal("the file input or the demo button exists before the UI runs: a test could resolve a node that the mount replaces")
			}
			if tc.early {
				tc.act(t, b)
				if s := b.hookStatus(); s != "loading" {
					t.Errorf("status %q right after the early action, want loading", s)
				}
				release()
			} else {
				release()
				tc.act(t, b) // waits for the control the UI draws
			}
			b.waitHookReady(90 * time.Second)
			checkHooks(t, b, env.demo, true)
			b.assertPrivate()
		})
	}
}

// TestImmediateLoadAfterNavigation is the black-box scenario itself: no
// request held back, the files are set as soon as the input exists.
func TestImmediateLoadAfterNavigation(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.Navigate(env.baseURL + "/"))
	early := b.hookStatus()
	b.upload(env.demo)
	t.Logf("status when the files were set: %q", early)
	b.waitHookReady(90 * time.Second)
	checkHooks(t, b, env.demo, true)
}

// TestSecondLoadNoStaleReady loads a bad JSONL file, then the demo on the
// same page: right after the new files are set the status must not read
// "ready" (that would be the previous load's), and at the next "ready" the
// hooks must show the demo's counts and metrics.
func TestSecondLoadNoStaleReady(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "stale-bad.jsonl")
	// Line 2 is not JSON and line 3 lacks the required "type": the CLI
	// reports errors for them (the expected counts are the CLI's).
	lines := []string{
		`{"id":"ok-1","type":"mcq_single","inputs":{"text":"2+2?"},"choices":["3","4"],"answer":"4","meta":{"split":"test"}}`,
		`{"id":"broken-2","type":"mcq_single","inputs":{"text":"cut`,
		`{"id":"no-type-3","inputs":{"text":"which?"},"choices":["a","b"],"answer":"a"}`,
	}
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := cliValidate(t, bad); v.Counts.Error == 0 {
		t.Fatal("the bad file has no error according to the CLI: the test would prove nothing")
	}
	b := newBrowser(t)
	b.do(chromedp.Navigate(env.baseURL + "/"))
	b.upload(bad)
	b.waitHookReady(90 * time.Second)
	checkHooks(t, b, bad, false)

	b.upload(env.demo)
	if s := b.hookStatus(); s == "ready" {
		t.Fatalf("status reads %q right after the new files were set: the previous load's", s)
	}
	b.waitHookReady(90 * time.Second)
	checkHooks(t, b, env.demo, true)
}
