//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"eval752/app/report"
)

// choose picks an option of a <select> as a user does ("" = the first
// option, "all") and fires its change event.
func (b *browser) choose(sel, value string) {
	b.t.Helper()
	eval[bool](b, fmt.Sprintf(`(() => { const e = document.querySelector(%q);
		if (%q === "") { e.selectedIndex = 0 } else { e.value = %q }
		e.dispatchEvent(new Event('change', {bubbles: true})); return true })()`, sel, value, value))
}

func (b *browser) hash() string {
	return eval[string](b, `location.hash`)
}

// waitHash waits until the URL hash holds every key=value of want.
func (b *browser) waitHash(want ...string) {
	b.t.Helper()
	js := `(() => { const h = new URLSearchParams(location.hash.slice(1)); return ` + func() string {
		var c []string
		for _, kv := range want {
			k, v, _ := strings.Cut(kv, "=")
			if v == "" {
				c = append(c, fmt.Sprintf(`!h.has(%q)`, k))
			} else {
				c = append(c, fmt.Sprintf(`h.get(%q) === %q`, k, v))
			}
		}
		return strings.Join(c, " && ")
	}() + `; })()`
	b.waitJS(js, 10*time.Second)
}

func (b *browser) activeTab() string {
	return eval[string](b, `(document.querySelector('[role=tab][aria-selected=true]')||{}).dataset.test || ""`)
}

func (b *browser) waitTab(name string) {
	b.t.Helper()
	b.waitJS(`(document.querySelector('[role=tab][aria-selected=true]')||{dataset:{}}).dataset.test === 'tab-`+name+`'`, 10*time.Second)
}

// TestHistoryAndDeepLink: the view, the findings filter and the open
// finding go into the URL hash; Back and Forward walk through them with the
// loaded result kept (same counts, no new load); a reload with a result
// asks first (beforeunload) and, refused, keeps the page; a link with that
// hash opened in a fresh browser lands, after the same files are loaded, on
// the same view with the same filter and the same finding open (the one the
// CLI lists at that place); a link to an item opens that item alone.
func TestHistoryAndDeepLink(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.eval752.zip")
	if out, err := exec.Command(env.bin, "demo", "--bad", bad).CombinedOutput(); err != nil {
		t.Fatalf("demo --bad: %v\n%s", err, out)
	}
	v := cliValidate(t, bad)
	// the third warning in the CLI's order: the page lists the findings
	// severity first, each severity in reported order
	var warnings []int
	for i, f := range v.Findings {
		if f.Severity == "warning" {
			warnings = append(warnings, i)
		}
	}
	if len(warnings) < 3 {
		t.Fatalf("the bad demo has %d warnings; the test needs 3", len(warnings))
	}
	want := v.Findings[warnings[2]]

	b := newBrowser(t)
	b.open()
	b.upload(bad)
	b.waitReady(60 * time.Second)
	loads := b.loads()
	if h := b.hash(); h != "" {
		t.Errorf("hash %q on the overview, want none", h)
	}
	b.tab("findings")
	b.waitHash("view=findings")
	b.choose(`[data-test=f-sev]`, "warning")
	b.waitHash("view=findings", "sev=warning")
	b.waitJS(fmt.Sprintf(`document.querySelectorAll('[data-test=finding]').length === %d`, v.Counts.Warning), 10*time.Second)
	b.click(`[data-test=finding] ~ [data-test=finding] ~ [data-test=finding] [data-test=finding-open]`)
	b.waitHash("view=findings", "sev=warning", "finding=2")
	detail := func() string {
		b.waitJS(`!!document.querySelector('[data-test=finding-detail]')`, 10*time.Second)
		return eval[string](b, `document.querySelector('[data-test=finding-detail]').textContent`)
	}
	checkDetail := func(when string) {
		t.Helper()
		d := detail()
		if !strings.Contains(d, want.Code) || !strings.Contains(d, fmt.Sprintf("line %d", want.Line)) {
			t.Errorf("%s: the open finding reads %q, want %s at line %d", when, d, want.Code, want.Line)
		}
	}
	checkDetail("after the click")
	link := eval[string](b, `location.href`)
	b.tab("scores")
	b.waitHash("view=scores", "sev=warning")

	back := func() { eval[bool](b, `(history.back(), true)`) }
	forward := func() { eval[bool](b, `(history.forward(), true)`) }
	back()
	b.waitTab("findings")
	b.waitHash("view=findings", "finding=2")
	checkDetail("after Back")
	back()
	b.waitHash("view=findings", "sev=warning", "finding=")
	b.waitJS(`!document.querySelector('[data-test=finding-detail]')`, 10*time.Second)
	back()
	b.waitTab("overview")
	b.waitJS(`location.hash === ''`, 10*time.Second)
	forward()
	b.waitTab("findings")
	forward()
	b.waitHash("finding=2")
	checkDetail("after Forward")
	if b.loads() != loads || b.status() != "ready" {
		t.Errorf("history moves started a load or lost the result: loads %d→%d, status %q", loads, b.loads(), b.status())
	}
	if e, w := b.counts(); e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("after history moves: counts %d/%d, CLI %d/%d", e, w, v.Counts.Error, v.Counts.Warning)
	}

	// A reload asks first; refused, the page keeps its result.
	dialog := make(chan string, 4)
	chromedp.Listen(b.ctx, func(ev any) {
		if d, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			dialog <- string(d.Type)
		}
	})
	go chromedp.Call(b.ctx, page.Reload, page.ReloadParams{})
	select {
	case typ := <-dialog:
		if typ != "beforeunload" {
			t.Errorf("dialog %q on reload, want beforeunload", typ)
		}
		if _, err := chromedp.Call(b.ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false}); err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a reload with a loaded result did not ask first")
	}
	time.Sleep(300 * time.Millisecond)
	if b.status() != "ready" || b.loads() != loads {
		t.Errorf("after a refused reload: status %q, loads %d (was %d)", b.status(), b.loads(), loads)
	}
	checkDetail("after a refused reload")

	// The link, opened fresh: same view, filter and open finding once the
	// same file is loaded.
	b2 := newBrowser(t)
	b2.openURL(link)
	b2.waitTab("findings")
	b2.upload(bad)
	b2.waitReady(60 * time.Second)
	b2.waitTab("findings")
	if got := eval[string](b2, `document.querySelector('[data-test=f-sev]').value`); got != "warning" {
		t.Errorf("deep link: severity filter %q, want warning", got)
	}
	b2.waitJS(`!!document.querySelector('[data-test=finding-detail]')`, 10*time.Second)
	if d := eval[string](b2, `document.querySelector('[data-test=finding-detail]').textContent`); !strings.Contains(d, want.Code) || !strings.Contains(d, fmt.Sprintf("line %d", want.Line)) {
		t.Errorf("deep link: the open finding reads %q, want %s at line %d", d, want.Code, want.Line)
	}
	if h := b2.hash(); "#"+strings.SplitN(link, "#", 2)[1] != h {
		t.Errorf("deep link: hash %q after the load, want %q", h, "#"+strings.SplitN(link, "#", 2)[1])
	}

	// A link to one item.
	var rep report.Report
	if err := json.Unmarshal(cli(t, bad, "score", "--json"), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Items) < 4 {
		t.Fatalf("the bad demo has %d items", len(rep.Items))
	}
	id := rep.Items[3].ID
	b3 := newBrowser(t)
	b3.openURL(env.baseURL + "/#view=items&item=" + id)
	b3.upload(bad)
	b3.waitReady(60 * time.Second)
	b3.waitTab("items")
	one := fmt.Sprintf(`(() => { const c = document.querySelectorAll('[data-test=item]'); return c.length === 1 && c[0].dataset.id === %q })()`, id)
	b3.waitJS(one, 10*time.Second)
	b3.click(`[data-test=items-all]`)
	b3.waitJS(fmt.Sprintf(`document.querySelectorAll('[data-test=item]').length === %d`, min(len(rep.Items), 25)), 10*time.Second)
	b3.waitHash("view=items", "item=")
	eval[bool](b3, `(history.back(), true)`)
	b3.waitJS(one, 10*time.Second)
	// an item's id is a link to it
	b3.click(`[data-test=items-all]`)
	// the cards are drawn a few per frame: click once the page is drawn
	// whole (a click while cards are still being appended is not what
	// this test is about)
	b3.waitJS(fmt.Sprintf(`document.querySelectorAll('[data-test=item] [data-test=item-link]').length === %d && !document.querySelector('[data-drawing]')`, min(len(rep.Items), 25)), 10*time.Second)
	second := eval[string](b3, `document.querySelectorAll('[data-test=item] [data-test=item-link]')[1].textContent`)
	b3.click(`[data-test=item] ~ [data-test=item] [data-test=item-link]`)
	b3.waitJS(fmt.Sprintf(`(() => { const c = document.querySelectorAll('[data-test=item]'); return c.length === 1 && c[0].dataset.id === %q })()`, second), 10*time.Second)
}
