//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The page is never left at "loading" (issue 10): when the core worker dies
// mid-load the status turns to "error" with a plain-words message and a
// Retry button, and an input over the page's memory budget is refused
// before it is read, with the limit and the CLI command to run instead.
// Both use the page's test hooks (window.eval752Test, docs/ui.md): a worker
// told to die at once (an unrecovered Go panic, the same runtime exit as
// "fatal error: out of memory"), and a lowered memory limit instead of a
// file of gigabytes.

// errorText waits for status "error" and returns data-test=error's text.
func (b *browser) errorText(timeout time.Duration) string {
	b.t.Helper()
	b.waitJS(`(() => { const s = document.querySelector('[data-test=status]').dataset.state;
		if (s === 'ready') throw new Error('ready, want error');
		return s === 'error'; })()`, timeout)
	return eval[string](b, `document.querySelector('[data-test=error]').textContent`)
}

func TestWorkerDeathEndsLoad(t *testing.T) {
	b := newBrowser(t)
	b.open()
	eval[bool](b, `window.eval752Test = {crashWorker: true}; true`)
	b.upload(env.demo)
	msg := b.errorText(60 * time.Second)
	for _, want := range []string{"the eval752 core stopped", "crashed", "eval752Test.crashWorker", "Retry"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if !eval[bool](b, `!!document.querySelector('[data-test=retry]')`) {
		t.Fatal("no Retry button after the worker died")
	}
	// Retry runs the same files again on a fresh worker: with the hook
	// removed, the load completes with the CLI's counts.
	eval[bool](b, `delete window.eval752Test; true`)
	b.seen = b.loads()
	b.click(`[data-test=retry]`)
	b.waitReady(60 * time.Second)
	v := cliValidate(t, env.demo)
	if e, w := b.counts(); e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("after retry: counts %d/%d, CLI %d/%d", e, w, v.Counts.Error, v.Counts.Warning)
	}
}

func TestTooLargeForPage(t *testing.T) {
	b := newBrowser(t)
	b.open()
	// the demo bundle's entries need far more than 1 MB by the budget
	eval[bool](b, `window.eval752Test = {memoryLimit: 1e6}; true`)
	b.upload(env.demo)
	msg := b.errorText(60 * time.Second)
	for _, want := range []string{"too large for the browser", "the page can hold about 1.0 MB", "Nothing was loaded", "eval752 results eval752-results.zip demo.eval752.zip"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if eval[bool](b, `!!document.querySelector('[data-test=retry]')`) {
		t.Error("a refused input offers Retry (it would be refused again)")
	}
	// The page stays usable: the same worker loads the demo next.
	eval[bool](b, `delete window.eval752Test; true`)
	b.seen = b.loads()
	b.click(`[data-test=demo-button]`)
	b.waitReady(60 * time.Second)
	v := cliValidate(t, env.demo)
	if e, w := b.counts(); e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("after the refusal: counts %d/%d, CLI %d/%d", e, w, v.Counts.Error, v.Counts.Warning)
	}
}

// TestDemoWorkerTime logs the worker's time for the demo bundle (the
// "(core: N ms)" the status line shows: from the worker taking the
// evaluate message to its posting the result — reading, validating,
// scoring with 1000-resample CIs and the audit) and the page's time from
// sending the files to "ready" (the "in N s" before it), for README
// "Benchmarks"; it checks only that each load ends with the CLI's counts.
//
// Two cases: three loads on a page whose demo button is clicked as soon as
// the UI runs (the first load overlaps the worker's warm-up, which then
// steps aside, and compiles what it needs itself), and one load on a fresh
// page clicked once the worker posted "warm" (its schemas compiled and a
// small sample of another shape evaluated while nobody waited: a user who
// takes a few seconds to pick a file).
func TestDemoWorkerTime(t *testing.T) {
	v := cliValidate(t, env.demo)
	load := func(b *browser, what string) string {
		b.click(`[data-test=demo-button]`)
		b.waitReady(90 * time.Second)
		if e, w := b.counts(); e != v.Counts.Error || w != v.Counts.Warning {
			t.Errorf("%s: counts %d/%d, CLI %d/%d", what, e, w, v.Counts.Error, v.Counts.Warning)
		}
		txt := eval[string](b, `document.querySelector('.status-line').textContent`)
		k := strings.Index(txt, "core: ")
		i := strings.LastIndex(txt[:max(k, 0)], " in ")
		if k < 0 || i < 0 {
			t.Fatalf("%s: no times in the status line %q", what, txt)
		}
		return strings.SplitN(txt[k+6:], ")", 2)[0] + " (page " + strings.TrimSpace(strings.TrimSuffix(txt[i+4:k], "(")) + ")"
	}
	b := newBrowser(t)
	b.open()
	var at []string
	for i := 0; i < 3; i++ {
		at = append(at, load(b, fmt.Sprintf("load %d", i+1)))
	}
	t.Logf("demo bundle clicked at once, worker time per load: %s", strings.Join(at, ", "))
	// a second browser: the first page, holding a result, would ask
	// before it is navigated away
	b = newBrowser(t)
	b.open()
	b.waitJS(`performance.getEntriesByName('eval752-warm').length > 0`, 60*time.Second)
	warm := eval[float64](b, `performance.getEntriesByName('eval752-warm')[0].startTime`)
	got := load(b, "after warm-up")
	t.Logf("demo bundle on a fresh page after the worker's warm-up (done %.0f ms after navigation): worker time %s", warm, got)
}
