//go:build !js

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestFindingsView: the findings are listed severity first (the CLI's
// findings, errors then warnings then infos, each in reported order); a
// column header sorts by it (again: reversed); a severity tile of the
// summary filters; the list has no scroll box of its own and nothing on the
// page scrolls sideways, the line panel open or not; a syntax error located
// by column has that column marked in the line window; Esc closes the panel.
func TestFindingsView(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.eval752.zip")
	if out, err := exec.Command(env.bin, "demo", "--bad", bad).CombinedOutput(); err != nil {
		t.Fatalf("demo --bad: %v\n%s", err, out)
	}
	v := cliValidate(t, bad)
	if v.Counts.Error == 0 || v.Counts.Warning == 0 || v.Counts.Info == 0 {
		t.Fatalf("the bad demo has counts %+v; the test needs every severity", v.Counts)
	}
	key := func(code, path string, line int) string { return fmt.Sprintf("%s|%s|%d", code, path, line) }
	var want []string
	for _, f := range v.severityFirst().Findings {
		want = append(want, key(f.Code, f.Path, f.Line))
	}
	b := newBrowser(t)
	b.open()
	b.upload(bad)
	b.waitReady(60 * time.Second)
	b.tab("findings")
	rows := func() []string {
		return eval[[]string](b, `[...document.querySelectorAll('[data-test=finding]')].map(e => e.dataset.code + '|' + e.dataset.path + '|' + e.dataset.line)`)
	}
	if got := rows(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("default order\n page %q\n want %q (severity first)", got, want)
	}
	sevs := eval[[]string](b, `[...document.querySelectorAll('[data-test=finding]')].map(e => e.dataset.severity)`)
	rank := map[string]int{"error": 0, "warning": 1, "info": 2}
	for i := 1; i < len(sevs); i++ {
		if rank[sevs[i]] < rank[sevs[i-1]] {
			t.Fatalf("row %d is %s after %s", i, sevs[i], sevs[i-1])
		}
	}

	// sort by rule, then reversed
	byRule := append([]struct {
		Severity string `json:"severity"`
		Code     string `json:"code"`
		Path     string `json:"path"`
		Line     int    `json:"line"`
	}(nil), v.Findings...)
	sort.SliceStable(byRule, func(i, j int) bool { return byRule[i].Code < byRule[j].Code })
	var wantRule []string
	for _, f := range byRule {
		wantRule = append(wantRule, key(f.Code, f.Path, f.Line))
	}
	b.click(`[data-test=f-sort-rule]`)
	b.waitHash("sort=rule")
	b.waitJS(`document.querySelector('[data-test=f-sort-rule]').closest('th').getAttribute('aria-sort') === 'ascending'`, 10*time.Second)
	if got := rows(); strings.Join(got, "\n") != strings.Join(wantRule, "\n") {
		t.Errorf("sorted by rule\n page %q\n want %q", got, wantRule)
	}
	b.click(`[data-test=f-sort-rule]`)
	b.waitHash("sort=rule", "desc=1")
	b.waitJS(`document.querySelector('[data-test=f-sort-rule]').closest('th').getAttribute('aria-sort') === 'descending'`, 10*time.Second)
	codes := eval[[]string](b, `[...document.querySelectorAll('[data-test=finding]')].map(e => e.dataset.code)`)
	if !sort.SliceIsSorted(codes, func(i, j int) bool { return codes[i] > codes[j] }) {
		t.Errorf("sorted by rule, descending: %q", codes)
	}
	for _, col := range []string{"severity", "where", "message"} {
		if n := eval[int](b, `document.querySelectorAll('[data-test=f-sort-`+col+`]').length`); n != 1 {
			t.Errorf("column %s has %d sort buttons", col, n)
		}
	}

	// a tile filters
	b.tab("overview")
	b.click(`[data-test=tile-warning]`)
	b.waitTab("findings")
	b.waitJS(fmt.Sprintf(`document.querySelectorAll('[data-test=finding][data-severity=warning]').length === %d && document.querySelectorAll('[data-test=finding]').length === %d`, v.Counts.Warning, v.Counts.Warning), 10*time.Second)
	if got := eval[string](b, `document.querySelector('[data-test=f-sev]').value`); got != "warning" {
		t.Errorf("after the warnings tile the severity filter reads %q", got)
	}
	b.click(`[data-test=tile-error]`)
	b.waitJS(fmt.Sprintf(`document.querySelectorAll('[data-test=finding][data-severity=error]').length === %d && document.querySelectorAll('[data-test=finding]').length === %d`, v.Counts.Error, v.Counts.Error), 10*time.Second)

	noScrollBox := func(when string) {
		t.Helper()
		r := eval[[]int](b, `(() => { const l = document.querySelector('.findings .list'); const cs = getComputedStyle(l);
			const cut = [...document.querySelectorAll('[data-test=finding] td')].filter(td => td.scrollWidth > td.clientWidth + 1).length;
			return [cs.overflowY === 'auto' || cs.overflowY === 'scroll' ? 1 : 0, l.scrollHeight - l.clientHeight,
				document.documentElement.scrollWidth - document.documentElement.clientWidth, cut]; })()`)
		if r[0] != 0 || r[1] > 2 || r[2] > 0 || r[3] > 0 {
			t.Errorf("%s: list scrolls itself %d (hidden %d px), page overflows sideways by %d px, %d cells cut", when, r[0], r[1], r[2], r[3])
		}
	}
	noScrollBox("findings list")
	b.click(`[data-test=finding-open]`)
	b.waitJS(`!!document.querySelector('[data-test=finding-detail]')`, 10*time.Second)
	noScrollBox("with the line panel open")
	b.do(chromedp.KeyEvent(kb.Escape))
	b.waitJS(`!document.querySelector('[data-test=finding-detail]')`, 10*time.Second)

	// a syntax error's column is marked: the CLI names the column; the
	// test wrote the bad byte (the '"' after a missing comma) at that place
	line2 := `{"id":"bad-2","type":"freeform" "inputs":{"text":"b"},"answer":"y"}`
	badAt := strings.Index(line2, ` "inputs"`) + 1
	file := filepath.Join(dir, "cols.jsonl")
	body := `{"id":"ok-1","type":"freeform","inputs":{"text":"a"},"answer":"x"}` + "\n" + line2 + "\n"
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cv := cliValidate(t, file)
	if len(cv.Findings) == 0 || cv.Findings[0].Code != "jsonl.syntax" || cv.Findings[0].Line != 2 {
		t.Fatalf("CLI findings %+v; want jsonl.syntax on line 2", cv.Findings)
	}
	b.upload(file)
	b.waitReady(60 * time.Second)
	b.tab("findings")
	b.click(`[data-test=finding][data-line="2"] [data-test=finding-open]`)
	b.waitJS(`!!document.querySelector('[data-test=column-hit]')`, 10*time.Second)
	got := eval[[]string](b, `(() => { const m = document.querySelector('[data-test=column-hit]'); const ln = m.closest('.ln');
		const before = [...ln.childNodes].filter(n => !n.classList || !n.classList.contains('lnum'));
		let pre = ''; for (const n of before) { if (n === m) break; pre += n.textContent; }
		return [m.textContent, String(pre.length), m.dataset.column, ln.dataset.line, ln.innerHTML]; })()`)
	if got[0] != `"` || got[1] != fmt.Sprint(badAt) || got[2] != fmt.Sprint(badAt+1) || got[3] != "2" {
		t.Errorf("%s: column mark %q at byte %s (column %s) of line %s; want '\"' at byte %d (column %d) of line 2", got[4], got[0], got[1], got[2], got[3], badAt, badAt+1)
	}
	if !strings.Contains(eval[string](b, `document.querySelector('[data-test=finding-detail]').textContent`), fmt.Sprintf("column %d", badAt+1)) {
		t.Errorf("the panel does not name column %d", badAt+1)
	}
}
