//go:build !js

package e2e

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"eval752/app/demo"
	"eval752/app/report"
)

// checkAgainstCLI compares the page's counters and every score figure with
// `eval752 validate --json` and `score --json` on the same file.
func checkAgainstCLI(t *testing.T, b *browser, file string) {
	t.Helper()
	v := cliValidate(t, file)
	e, w := b.counts()
	if e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("page counts error=%d warning=%d, CLI validate --json error=%d warning=%d", e, w, v.Counts.Error, v.Counts.Warning)
	}
	var rep report.Report
	if err := json.Unmarshal(cli(t, file, "score", "--json"), &rep); err != nil {
		t.Fatalf("score --json: %v", err)
	}
	b.tab("scores")
	compareCells(t, "scores", b.pageCells("score"), reportCells(&rep))
}

func TestDemoThroughFileInput(t *testing.T) {
	b := newBrowser(t)
	b.open()
	b.upload(env.demo)
	b.waitReady(60 * time.Second)
	checkAgainstCLI(t, b, env.demo)
	b.assertPrivate()
}

func TestDemoThroughDrop(t *testing.T) {
	b := newBrowser(t)
	b.open()
	b.drop(env.demo)
	b.waitReady(60 * time.Second)
	checkAgainstCLI(t, b, env.demo)
	b.assertPrivate()
}

// drop drags paths (files or folders) onto the drop zone and drops them: a
// real drag and drop, dispatched by the browser's input pipeline (not a
// synthetic JS event): dragEnter, dragOver, drop.
func (b *browser) drop(paths ...string) {
	b.t.Helper()
	box := eval[[]float64](b, `(() => { const r = document.querySelector('.drop').getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`)
	data := &input.DragData{Items: []*input.DragDataItem{}, Files: paths, DragOperationsMask: 1}
	for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		if _, err := chromedp.Call(b.ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: box[0], Y: box[1], Data: data}); err != nil {
			b.t.Fatalf("%s: %v", typ, err)
		}
	}
}

// TestUnreadableFile: a File the browser cannot read (here a folder given to
// the plain file input; in life a file moved or deleted after it was
// picked) ends the load with a message that says so — not a Go panic with
// a stack trace — and the next load works.
func TestUnreadableFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "not-a-file")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte("{}\n"), 0o644)
	b := newBrowser(t)
	b.open()
	b.upload(dir)
	b.waitJS(`document.querySelector('[data-test=status]').dataset.state === 'error'`, 60*time.Second)
	msg := eval[string](b, `document.querySelector('[data-test=error]').textContent`)
	t.Logf("unreadable file: the page says %q", msg)
	if !strings.Contains(msg, "cannot read this file") || strings.Contains(msg, "goroutine") || strings.Contains(msg, "internal error") {
		t.Errorf("error shown for an unreadable file: %q", msg)
	}
	b.upload(env.demo)
	b.waitReady(60 * time.Second)
	checkAgainstCLI(t, b, env.demo)
}

// TestDeepNesting: a line nested thousands of levels deep (8 KB of "[")
// is a located syntax finding, as on the command line — it does not exhaust
// the worker's JavaScript stack and kill the load.
func TestDeepNesting(t *testing.T) {
	file := filepath.Join(t.TempDir(), "deep.jsonl")
	good := `{"id":"q-001","type":"mcq_single","inputs":{"text":"法国的首都是？","images":[],"audio":[],"video":[]},"choices":["伦敦","巴黎"],"answer":"巴黎","checker":null,"criteria":null,"meta":{"source":"geo","difficulty":"easy","section":"Europe"}}`
	deep := func(n int) string {
		return `{"id":"q-00x","a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
	}
	os.WriteFile(file, []byte(good+"\n"+deep(4000)+"\n"+deep(10001)+"\n"), 0o644)
	v := cliValidate(t, file)
	b := newBrowser(t)
	b.open()
	b.upload(file)
	b.waitReady(60 * time.Second)
	rows := eval[[]string](b, `[...document.querySelectorAll('[data-test=finding]')].map(e => e.dataset.line + " " + e.dataset.code)`)
	var want []string
	for _, f := range v.severityFirst().Findings {
		want = append(want, fmt.Sprintf("%d %s", f.Line, f.Code))
	}
	if !slices.Contains(want, "2 jsonl.syntax") || !slices.Equal(rows, want) {
		t.Errorf("finding rows %q, CLI %q (want jsonl.syntax at lines 2 and 3)", rows, want)
	}
}

// TestFileGoneBeforeLoad: a file dropped while the page starts and deleted
// before the UI takes it cannot be read; the load ends with a message that
// says so, never "passes validation" on an "empty file". An empty folder
// given to the folder picker says it holds no file, and a failed load does
// not leave the previous load's verdict and tables on the page.
func TestFileGoneBeforeLoad(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "broken.jsonl")
	os.WriteFile(file, []byte("{\"id\": \n{not json\n"), 0o644)
	b := newBrowser(t)
	release := holdAppWasm(t, b)
	b.do(chromedp.Navigate(env.baseURL + "/"))
	b.waitJS(`!!document.querySelector('.drop')`, 10*time.Second)
	b.drop(file)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	release()
	b.waitJS(`document.querySelector('[data-test=status]').dataset.state === 'error'`, 60*time.Second)
	msg := eval[string](b, `document.querySelector('[data-test=error]').textContent`)
	if !strings.Contains(msg, "cannot read this file") || strings.Contains(msg, "goroutine") {
		t.Errorf("a file deleted before the load: the page says %q", msg)
	}

	b.click(`[data-test=demo-button]`)
	b.waitReady(60 * time.Second)
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(filepath.Join(empty, ".git"), 0o755)
	os.WriteFile(filepath.Join(empty, ".DS_Store"), []byte("x"), 0o644)
	b.do(chromedp.SetUploadFiles(chromedp.CSS(`[data-test=folder-input]`), []string{empty}))
	b.waitJS(`document.querySelector('[data-test=status]').dataset.state === 'error'`, 20*time.Second)
	if msg := eval[string](b, `document.querySelector('[data-test=error]').textContent`); !strings.Contains(msg, "holds no file") {
		t.Errorf("an empty folder picked: the page says %q", msg)
	}
	if n := eval[int](b, `document.querySelectorAll('[data-test=metric], [data-test=finding]').length`); n != 0 {
		t.Errorf("after the failed load, %d metric cells / finding rows of the demo are still shown", n)
	}
}

// TestFolderPickAndDrop: seed 003's experiment folder (data/ eval/
// runs/<id>/, both runs' files named predictions.jsonl) given through the
// folder picker and then dropped as a folder: each time the page reads the
// files under it — hidden ones left out — names the runs by their folders
// and shows what `eval752 validate|score FOLDER` prints, finding by finding
// and figure by figure.
func TestFolderPickAndDrop(t *testing.T) {
	files, err := demo.Folder()
	if err != nil {
		t.Fatal(err)
	}
	exp := filepath.Join(t.TempDir(), "exp")
	files[".DS_Store"] = []byte("\x00\x00\x00\x01Bud1 not a format")
	files["runs/bm25/.config.yaml.swp"] = []byte("b0VIM 9.0")
	if err := demo.WriteFiles(exp, files); err != nil {
		t.Fatal(err)
	}
	v := cliValidate(t, exp)
	wantRuns := []string{"bm25", "hybrid-rerank", "hybrid-rerank.retrieve"}
	check := func(how string) {
		t.Helper()
		b := newBrowser(t)
		b.open()
		if how == "picker" {
			b.do(chromedp.SetUploadFiles(chromedp.CSS(`[data-test=folder-input]`), []string{exp}))
		} else {
			b.drop(exp)
		}
		b.waitReady(60 * time.Second)
		checkAgainstCLI(t, b, exp)
		rows := eval[[]string](b, `[...document.querySelectorAll('[data-test=finding]')].map(e => e.dataset.path + ":" + e.dataset.line + " " + e.dataset.code)`)
		var want []string
		for _, f := range v.severityFirst().Findings {
			want = append(want, fmt.Sprintf("%s:%d %s", f.Path, f.Line, f.Code))
		}
		if len(want) == 0 || !slices.Equal(rows, want) {
			t.Errorf("%s: finding rows %q\nCLI validate %s: %q", how, rows, exp, want)
		}
		b.tab("compare")
		b.waitJS(`!!document.querySelector('[data-test=c-run-b]')`, 10*time.Second)
		if runs := eval[[]string](b, `[...document.querySelectorAll('[data-test=c-run-b] option')].map(o => o.value)`); !slices.Equal(runs, wantRuns) {
			t.Errorf("%s: runs offered %v, want %v (named by runs/<id>/)", how, runs, wantRuns)
		}
		b.assertPrivate()
	}
	check("picker")
	check("drop")
}

// TestPageLoadTime measures a cold visit: navigation until the demo bundle
// is validated and scored (status "ready"), in a fresh profile.
func TestPageLoadTime(t *testing.T) {
	b := newBrowser(t)
	start := time.Now()
	b.open()
	ui := time.Since(start)
	b.click(`[data-test=demo-button]`)
	b.waitReady(60 * time.Second)
	total := time.Since(start)
	t.Logf("page load: navigation → UI running %v; → demo validated and scored (status ready) %v", ui.Round(time.Millisecond), total.Round(time.Millisecond))
	e, w := b.counts()
	v := cliValidate(t, env.demo)
	if e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("demo button: counts %d/%d, CLI %d/%d", e, w, v.Counts.Error, v.Counts.Warning)
	}
}

const marker = "E2E-PRIVATE-MARKER-7731"

func TestBadJSONLFindings(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bad-items.jsonl")
	// Line 1 is a valid eval752 item; line 2 is not JSON (cut short);
	// line 3 lacks the required "type"; line 4 is valid and carries a
	// marker that must never appear in any request.
	lines := []string{
		`{"id":"ok-1","type":"mcq_single","inputs":{"text":"2+2?"},"choices":["3","4"],"answer":"4","meta":{"split":"test"}}`,
		`{"id":"broken-2","type":"mcq_single","inputs":{"text":"cut`,
		`{"id":"no-type-3","inputs":{"text":"which?"},"choices":["a","b"],"answer":"a"}`,
		`{"id":"ok-4","type":"freeform","inputs":{"text":"` + marker + `"},"answer":"x"}`,
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := cliValidate(t, file)
	b := newBrowser(t)
	b.open()
	b.upload(file)
	b.waitReady(60 * time.Second)
	b.tab("findings")
	type row struct {
		Code, Path string
		Line       int
	}
	got := eval[[]row](b, `[...document.querySelectorAll('[data-test=finding]')].map(e => ({Code: e.dataset.code, Path: e.dataset.path, Line: +e.dataset.line}))`)
	var wantRows []row
	for _, f := range want.severityFirst().Findings {
		wantRows = append(wantRows, row{f.Code, f.Path, f.Line})
	}
	if fmt.Sprint(got) != fmt.Sprint(wantRows) {
		t.Errorf("finding rows\n page %v\n CLI  %v", got, wantRows)
	}
	// Independent of the CLI: the file was written with its faults on
	// lines 2 and 3, so there must be findings there and none on line 1.
	at := map[int]bool{}
	for _, r := range got {
		at[r.Line] = true
	}
	if !at[2] || !at[3] || at[1] {
		t.Errorf("findings on lines %v; want lines 2 and 3 (and not 1)", at)
	}
	// Open the finding on line 3: the window shows lines 1..4 with line 3
	// marked, and its pointer (if any) highlighted inside that line.
	b.click(`[data-test=finding][data-line="3"] [data-test=finding-open]`)
	b.waitJS(`!!document.querySelector('[data-test=line-window] .ln.target')`, 10*time.Second)
	target := eval[string](b, `document.querySelector('[data-test=line-window] .ln.target').dataset.line`)
	text := eval[string](b, `document.querySelector('[data-test=line-window] .ln.target').textContent`)
	if target != "3" || !strings.Contains(text, `"no-type-3"`) {
		t.Errorf("line window target line %s text %q; want line 3 holding no-type-3", target, text)
	}
	n := eval[int](b, `document.querySelectorAll('[data-test=line-window] .ln').length`)
	if n != 4 {
		t.Errorf("line window shows %d lines, want 4 (lines 1–4: 3±3 clipped to the file)", n)
	}
	b.assertPrivate(marker)
}

// hostileZip builds a bundle with a path-traversal entry and an entry whose
// compression ratio is far above the loader's limit (a zip bomb in small).
func hostileZip(t *testing.T, path string) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("manifest.json")
	w.Write([]byte(`{"format_version":1,"kind":"dataset"}`))
	w, _ = zw.Create("meta.json")
	w.Write([]byte(`{"name":"hostile"}`))
	w, _ = zw.Create("../../etc/evil.jsonl")
	w.Write([]byte(`{"id":"evil"}` + "\n"))
	w, _ = zw.Create("sections/bomb.jsonl")
	zeros := make([]byte, 1<<20)
	for i := 0; i < 32; i++ { // 32 MiB of zeros deflate to ~32 KiB: ratio ≈ 1000
		w.Write(zeros)
	}
	w, _ = zw.Create("sections/fine.jsonl")
	w.Write([]byte(`{"id":"q1","type":"freeform","inputs":{"text":"hi"},"answer":"x"}` + "\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestHostileZip(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hostile.eval752.zip")
	hostileZip(t, file)
	want := cliValidate(t, file)
	if want.Counts.Error == 0 {
		t.Fatalf("the CLI found no error in the hostile zip; the test would prove nothing")
	}
	b := newBrowser(t)
	b.open()
	b.upload(file)
	b.waitReady(60 * time.Second)
	e, w := b.counts()
	if e != want.Counts.Error || w != want.Counts.Warning {
		t.Errorf("hostile zip: page counts %d/%d, CLI %d/%d", e, w, want.Counts.Error, want.Counts.Warning)
	}
	b.tab("findings")
	paths := eval[[]string](b, `[...document.querySelectorAll('[data-test=finding]')].map(e => e.dataset.path)`)
	var traversal, bomb bool
	for _, p := range paths {
		traversal = traversal || strings.Contains(p, "../")
		bomb = bomb || strings.Contains(p, "bomb.jsonl")
	}
	if !traversal || !bomb {
		t.Errorf("findings name the traversal entry: %v, the bomb entry: %v (paths %v)", traversal, bomb, paths)
	}
	// The page stays usable: the demo loads next, with its own numbers.
	b.click(`[data-test=demo-button]`)
	b.waitReady(60 * time.Second)
	v := cliValidate(t, env.demo)
	if e, w := b.counts(); e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("demo after the hostile zip: counts %d/%d, CLI %d/%d", e, w, v.Counts.Error, v.Counts.Warning)
	}
	b.assertPrivate()
}

// TestComparisonAndExport checks the comparison view against `eval752
// compare --json`, and that the downloaded JSON reports are byte-for-byte
// the CLI's.
func TestComparisonAndExport(t *testing.T) {
	b := newBrowser(t)
	b.open()
	dl := b.downloads()
	b.upload(env.demo)
	b.waitReady(60 * time.Second)

	b.tab("export")
	b.click(`[data-test=export-score-json]`)
	got := waitFile(t, dl, exportName(t, env.demo, "score.json"), 20*time.Second)
	want := cli(t, env.demo, "score", "--json")
	if !bytes.Equal(got, want) {
		t.Errorf("downloaded score JSON (%d bytes) differs from `eval752 score --json` (%d bytes)", len(got), len(want))
	}

	b.click(`[data-test=export-result-json]`)
	var res struct {
		Runs []string `json:"runs"`
	}
	if err := json.Unmarshal(waitFile(t, dl, exportName(t, env.demo, "result.json"), 20*time.Second), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) < 2 {
		t.Fatalf("the demo has runs %v; the comparison needs two", res.Runs)
	}
	wantCmp := cli(t, env.demo, "compare", "--json", res.Runs[0], res.Runs[1])
	b.click(`[data-test=export-compare-json]`)
	gotCmp := waitFile(t, dl, exportName(t, env.demo, "compare.json"), 20*time.Second)
	if !bytes.Equal(gotCmp, wantCmp) {
		t.Errorf("downloaded compare JSON (%d bytes) differs from `eval752 compare --json %s %s` (%d bytes)", len(gotCmp), res.Runs[0], res.Runs[1], len(wantCmp))
	}
	var cmp report.Report
	if err := json.Unmarshal(wantCmp, &cmp); err != nil {
		t.Fatal(err)
	}
	b.tab("compare")
	compareCells(t, "comparison", b.pageCells("compare"), reportCells(&cmp))

	// Markdown and CSV are generated too (by the report's renderers).
	b.tab("export")
	b.click(`[data-test=export-score-csv]`)
	if csv := waitFile(t, dl, exportName(t, env.demo, "score.csv"), 20*time.Second); !bytes.HasPrefix(csv, []byte("section,table,row,column")) {
		t.Errorf("score CSV starts %q", csv[:min(len(csv), 40)])
	}
	b.tab("audit")
	if eval[bool](b, `!!document.querySelector('[data-test=export-audit-csv]')`) {
		b.click(`[data-test=export-audit-csv]`)
		want := cli(t, env.demo, "audit", "--csv")
		if got := waitFile(t, dl, exportName(t, env.demo, "audit.csv"), 20*time.Second); !bytes.Equal(got, want) {
			t.Errorf("downloaded audit CSV differs from `eval752 audit --csv`")
		}
	}
	b.assertPrivate()
}

func TestItemBrowser(t *testing.T) {
	b := newBrowser(t)
	b.open()
	b.upload(env.demo)
	b.waitReady(60 * time.Second)
	var rep report.Report
	if err := json.Unmarshal(cli(t, env.demo, "score", "--json"), &rep); err != nil {
		t.Fatal(err)
	}
	b.tab("items")
	b.waitJS(`!!document.querySelector('[data-test=items-count]')`, 10*time.Second)
	all := eval[string](b, `document.querySelector('[data-test=items-count]').textContent`)
	if !strings.Contains(all, fmt.Sprintf("of %d items", len(rep.Items))) {
		t.Errorf("items count %q; the CLI report has %d items", all, len(rep.Items))
	}
	// "failures only": the count must be what the filter rule gives on the
	// CLI's own item details.
	fail := 0
	for _, it := range rep.Items {
		for _, r := range it.Runs {
			if failed(r) {
				fail++
				break
			}
		}
	}
	b.click(`[data-test=i-fail]`)
	b.waitJS(fmt.Sprintf(`document.querySelector('[data-test=items-count]').textContent.startsWith('%d of ')`, fail), 10*time.Second)
	b.click(`[data-test=i-fail]`) // off again

	// the error-code filter (seed 003 §9): the items some run has the code
	// for in the CLI's own item details; the demo's reviewer gave one
	// GEN_OMISSION (runs/hybrid-rerank/errors.jsonl)
	withCode := 0
	for _, it := range rep.Items {
		if slices.ContainsFunc(it.Runs, func(r report.RunItem) bool { return slices.Contains(r.Errors, "GEN_OMISSION") }) {
			withCode++
		}
	}
	if withCode == 0 {
		t.Fatal("the demo has no GEN_OMISSION item: the filter is not exercised")
	}
	eval[bool](b, `(() => { const e = document.querySelector('[data-test=i-error]'); e.value = 'GEN_OMISSION';
		e.dispatchEvent(new Event('change', {bubbles: true})); return true })()`)
	b.waitJS(fmt.Sprintf(`document.querySelector('[data-test=items-count]').textContent.startsWith('%d of ')`, withCode), 10*time.Second)
	b.waitJS(`[...document.querySelectorAll('[data-test=item-errors]')].some(e => e.textContent.includes('GEN_OMISSION'))`, 10*time.Second)
	// the filter is in the URL (a link to "the items with GEN_OMISSION")
	b.waitJS(`new URLSearchParams(location.hash.slice(1)).get('code') === 'GEN_OMISSION'`, 10*time.Second)
}

// failed restates the item browser's "failure" rule (missing, incorrect,
// or all-zero per-item metrics) from its documentation.
func failed(r report.RunItem) bool {
	if r.Missing {
		return true
	}
	if r.Correct != nil {
		return !*r.Correct
	}
	if len(r.Scores) == 0 {
		return false
	}
	for _, e := range r.Scores {
		if e.Value != 0 {
			return false
		}
	}
	return true
}

// TestOffline: after one visit the service worker serves the app; with the
// server stopped a reload still runs it and scores a bundle with the same
// numbers.
func TestOffline(t *testing.T) {
	srv, err := startServer(env.static)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.stop()
	b := newBrowser(t)
	b.openURL(srv.url + "/")
	// Wait until the service worker controls the page and its cache holds
	// the worker's files.
	b.waitJS(`!!navigator.serviceWorker.controller`, 30*time.Second)
	b.waitJS(`(async () => { const ks = await caches.keys(); if (!ks.length) return false;
		const c = await caches.open(ks[0]); return !!(await c.match('/web/worker.wasm')) && !!(await c.match('/web/demo.eval752.zip')); })()`, 30*time.Second)
	srv.stop()
	if _, err := http.Get(srv.url + "/"); err == nil {
		t.Fatal("the server still answers after stop")
	}
	b.do(chromedp.Reload())
	b.waitClient()
	b.upload(env.demo)
	b.waitReady(60 * time.Second)
	checkAgainstCLI(t, b, env.demo)
	b.click(`[data-test=demo-button]`)
	b.waitReady(60 * time.Second)
}

// largeBundle writes an eval752 bundle with n mcq_single items and two runs.
func largeBundle(t *testing.T, path string, n int) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("manifest.json")
	w.Write([]byte(`{"format_version":1,"kind":"dataset"}`))
	w, _ = zw.Create("meta.json")
	w.Write([]byte(`{"name":"large-generated"}`))
	w, _ = zw.Create("sections/main.jsonl")
	splits := []string{"dev", "test"}
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, `{"id":"g-%05d","type":"mcq_single","inputs":{"text":"Generated question %d?"},"choices":["A","B","C","D"],"answer":"%c","meta":{"split":"%s","difficulty":"easy","source":"gen"}}`+"\n",
			i, i, 'A'+i%4, splits[i%2])
	}
	w, _ = zw.Create("results.jsonl")
	for i := 0; i < n; i++ {
		// run-a is right on 3 of 4 items, run-b on 1 of 2 (deterministic):
		// odd items have answer B or D, and "A" is wrong for them.
		a, bb := 'A'+rune(i%4), 'A'+rune(i%4)
		if i%4 == 3 {
			a = 'A'
		}
		if i%2 == 1 {
			bb = 'A'
		}
		fmt.Fprintf(w, `{"run":"run-a","item_id":"g-%05d","response":"%c"}`+"\n", i, a)
		fmt.Fprintf(w, `{"run":"run-b","item_id":"g-%05d","response":"%c"}`+"\n", i, bb)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLongTaskWhileScoring loads a generated 20k-item bundle (many items,
// few metrics) and then the demo bundle (few items, thousands of figure
// cells), and reports the longest main-thread block a
// PerformanceObserver('longtask') saw from each load until "ready", and
// while opening each one's Comparison tab (decoded and drawn only then).
func TestLongTaskWhileScoring(t *testing.T) {
	file := filepath.Join(t.TempDir(), "large.eval752.zip")
	largeBundle(t, file, 20000)
	b := newBrowser(t)
	b.open()
	longestSince := func(t0 float64) (longest float64, count int) {
		for _, e := range eval[[][]float64](b, `window.__longtasks`) {
			if e[0] >= t0 {
				count++
				longest = max(longest, e[1])
			}
		}
		return longest, count
	}
	measure := func(label string, load func()) {
		t0 := eval[float64](b, `performance.now()`)
		start := time.Now()
		load()
		b.waitReady(120 * time.Second)
		took := time.Since(start)
		longest, count := longestSince(t0)
		t.Logf("%s: ready in %v; %d long tasks on the UI thread, longest %.0f ms", label, took.Round(time.Millisecond), count, longest)
		t1 := eval[float64](b, `performance.now()`)
		tabStart := time.Now()
		b.tab("compare")
		b.waitJS(`!!document.querySelector('[data-report=compare]')`, 30*time.Second)
		tabTook := time.Since(tabStart)
		longestTab, _ := longestSince(t1)
		t.Logf("%s: opening the comparison tab: %v, longest UI block %.0f ms", label, tabTook.Round(time.Millisecond), longestTab)
		b.tab("overview")
	}
	st, _ := os.Stat(file)
	measure(fmt.Sprintf("20000 items × 2 runs (%d KiB zip)", st.Size()>>10), func() { b.upload(file) })
	v := cliValidate(t, file)
	if e, w := b.counts(); e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("large bundle: counts %d/%d, CLI %d/%d", e, w, v.Counts.Error, v.Counts.Warning)
	}
	measure("demo bundle (150 units, 2 runs, every score cell drawn)", func() { b.click(`[data-test=demo-button]`) })
}

// TestScreenshot loads the demo and captures the scores view (to -screenshot
// when given, else to a temp file that must be a PNG).
func TestScreenshot(t *testing.T) {
	out := *screenshot
	if out == "" {
		out = filepath.Join(t.TempDir(), "page.png")
	}
	b := newBrowser(t)
	b.do(chromedp.EmulateViewport(1360, 1100))
	b.open()
	b.click(`[data-test=demo-button]`)
	b.waitReady(60 * time.Second)
	b.tab("scores")
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatal("screenshot is not a PNG")
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d KiB)", out, len(png)>>10)
}

// TestServerRules checks the server without a browser: only GET/HEAD of
// known files, and the security headers on every answer.
func TestServerRules(t *testing.T) {
	for _, tc := range []struct {
		method, path string
		code         int
	}{
		{"GET", "/", 200},
		{"HEAD", "/", 200},
		{"GET", "/web/app.wasm", 200},
		{"GET", "/web/worker.wasm", 200},
		{"GET", "/web/worker.js", 200},
		{"GET", "/web/demo.eval752.zip", 200},
		{"GET", "/app-worker.js", 200},
		{"POST", "/", 405},
		{"PUT", "/web/upload", 405},
		{"GET", "/web/../go.mod", 404},
		{"GET", "/upload", 404},
		{"GET", "/robots.txt", 404},
		{"GET", "/web/", 404},
	} {
		req, _ := http.NewRequest(tc.method, env.baseURL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("%s %s: %d, want %d", tc.method, tc.path, resp.StatusCode, tc.code)
		}
		for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"} {
			if got := resp.Header.Get(h); got != want {
				t.Errorf("%s %s: %s = %q, want %q", tc.method, tc.path, h, got, want)
			}
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "connect-src 'self'") {
			t.Errorf("%s %s: CSP %q", tc.method, tc.path, csp)
		}
	}
}

// TestExportStatic writes the static site and serves it with a plain file
// server (no CSP, no eval752 code): the page loads and scores the demo.
func TestExportStatic(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	cmd := exec.Command(env.bin, "export-static", "--dir", env.static, out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("export-static: %v\n%s", err, b)
	}
	for _, f := range []string{"index.html", "app.js", "app-worker.js", "wasm_exec.js", "manifest.webmanifest", "web/app.wasm", "web/worker.wasm", "web/worker.js", "web/demo.eval752.zip", "web/eval752.css"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("export-static: %s missing", f)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: http.FileServer(http.Dir(out))}
	go hs.Serve(ln)
	defer hs.Close()
	b := newBrowser(t)
	b.openURL("http://" + ln.Addr().String() + "/")
	b.click(`[data-test=demo-button]`)
	b.waitReady(60 * time.Second)
	v := cliValidate(t, env.demo)
	if e, w := b.counts(); e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("static site: counts %d/%d, CLI %d/%d", e, w, v.Counts.Error, v.Counts.Warning)
	}
}

// TestCancel starts scoring a large bundle, cancels it (the worker is
// terminated and restarted), and loads the demo next.
func TestCancel(t *testing.T) {
	file := filepath.Join(t.TempDir(), "large.eval752.zip")
	largeBundle(t, file, 20000)
	b := newBrowser(t)
	b.open()
	b.upload(file)
	b.waitJS(`!!document.querySelector('[data-test=cancel]')`, 10*time.Second)
	b.click(`[data-test=cancel]`)
	b.waitJS(`document.querySelector('[data-test=status]').dataset.state === 'cancelled'`, 10*time.Second)
	if b.status() != "cancelled" {
		t.Fatalf("status %q after cancel", b.status())
	}
	b.seen = b.loads()
	b.click(`[data-test=demo-button]`)
	b.waitReady(60 * time.Second)
	v := cliValidate(t, env.demo)
	if e, w := b.counts(); e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("demo after cancel: counts %d/%d, CLI %d/%d", e, w, v.Counts.Error, v.Counts.Warning)
	}
}

// TestPickersAndAuditExport uses the mixed-bad demo (three runs, findings of
// every severity): the findings filters narrow and widen again ("all" after
// a choice shows every row), the comparison of the first and the third run
// equals `eval752 compare` of those runs, its export follows the pick, and
// the audit JSON export equals `eval752 audit --json`.
func TestPickersAndAuditExport(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.eval752.zip")
	if out, err := exec.Command(env.bin, "demo", "--bad", bad).CombinedOutput(); err != nil {
		t.Fatalf("demo --bad: %v\n%s", err, out)
	}
	v := cliValidate(t, bad)
	b := newBrowser(t)
	b.open()
	dl := b.downloads()
	b.upload(bad)
	b.waitReady(60 * time.Second)

	rows := func() int { return eval[int](b, `document.querySelectorAll('[data-test=finding]').length`) }
	// choose picks an option as a user does ("" = the first option,
	// "all") and fires the change event.
	choose := func(sel string, value string) {
		eval[bool](b, fmt.Sprintf(`(() => { const e = document.querySelector(%q);
			if (%q === "") { e.selectedIndex = 0 } else { e.value = %q }
			e.dispatchEvent(new Event('change', {bubbles: true})); return true })()`, sel, value, value))
	}
	total := len(v.Findings)
	if total == 0 || total > 300 {
		t.Fatalf("the bad demo has %d findings; the test needs 1..300 (one page)", total)
	}
	b.tab("findings")
	b.waitJS(fmt.Sprintf(`document.querySelectorAll('[data-test=finding]').length === %d`, total), 10*time.Second)
	choose(`[data-test=f-sev]`, "error")
	b.waitJS(fmt.Sprintf(`document.querySelectorAll('[data-test=finding]').length === %d`, v.Counts.Error), 10*time.Second)
	choose(`[data-test=f-sev]`, "")
	b.waitJS(fmt.Sprintf(`document.querySelectorAll('[data-test=finding]').length === %d`, total), 10*time.Second)
	if n := rows(); n != total {
		t.Errorf("after severity error then all: %d rows, want %d", n, total)
	}

	b.tab("compare")
	b.waitJS(`!!document.querySelector('[data-test=c-run-b]')`, 10*time.Second)
	runs := eval[[]string](b, `[...document.querySelectorAll('[data-test=c-run-b] option')].map(o => o.value)`)
	if len(runs) < 3 {
		t.Fatalf("the bad demo offers runs %v; the test needs three", runs)
	}
	a, c := runs[0], runs[2]
	choose(`[data-test=c-run-b]`, c)
	b.waitJS(`!!document.querySelector('[data-report=compare] [data-run="`+c+`"]')`, 30*time.Second)
	want := cli(t, bad, "compare", "--json", a, c)
	var cmp report.Report
	if err := json.Unmarshal(want, &cmp); err != nil {
		t.Fatal(err)
	}
	compareCells(t, "comparison "+a+" vs "+c, b.pageCells("compare"), reportCells(&cmp))
	b.tab("export")
	b.click(`[data-test=export-compare-json]`)
	if got := waitFile(t, dl, exportName(t, bad, "compare.json"), 20*time.Second); !bytes.Equal(got, want) {
		t.Errorf("compare export after picking %s: differs from `eval752 compare --json %s %s`", c, a, c)
	}
	// a second pick keeps the first: A = the second run, B stays the third
	b.tab("compare")
	choose(`[data-test=c-run-a]`, runs[1])
	b.waitJS(`!!document.querySelector('[data-report=compare] [data-run="`+runs[1]+`"]')`, 30*time.Second)
	if got := eval[string](b, `document.querySelector('[data-test=c-run-b]').value`); got != c {
		t.Errorf("after picking A = %s, B reads %q, want %s", runs[1], got, c)
	}
	want2 := cli(t, bad, "compare", "--json", runs[1], c)
	var cmp2 report.Report
	if err := json.Unmarshal(want2, &cmp2); err != nil {
		t.Fatal(err)
	}
	compareCells(t, "comparison "+runs[1]+" vs "+c, b.pageCells("compare"), reportCells(&cmp2))
	b.tab("export")
	b.click(`[data-test=export-results-zip]`)
	if got := waitFile(t, dl, exportName(t, bad, "results.zip"), 30*time.Second); !bytes.Equal(got, cli(t, bad, "results", "--run-a", runs[1], "--run-b", c, "-")) {
		t.Errorf("results bundle export after picking %s vs %s differs from `eval752 results --run-a %s --run-b %s`", runs[1], c, runs[1], c)
	}
	b.click(`[data-test=export-audit-json]`)
	if got := waitFile(t, dl, exportName(t, bad, "audit.json"), 20*time.Second); !bytes.Equal(got, cli(t, bad, "audit", "--json")) {
		t.Errorf("audit JSON export differs from `eval752 audit --json`")
	}
	b.assertPrivate()
}

// TestPagingAndQuickLoads: a file of 700 bad lines pages through all its
// findings (300 a page, the third page starts at the 601st); then a one-line
// file loaded five times in a row reaches "ready" every time, however fast
// the load (go-app renders once a frame; the status must not stay at the
// "loading" the page writes synchronously).
func TestPagingAndQuickLoads(t *testing.T) {
	dir := t.TempDir()
	many := filepath.Join(dir, "many.jsonl")
	var buf bytes.Buffer
	for i := 1; i <= 700; i++ {
		fmt.Fprintf(&buf, `{"id":"m%d","type":"mcq_single","inputs":{"text":"q%d?"},"choices":["a","b"],"answer":"c"}`+"\n", i, i)
	}
	if err := os.WriteFile(many, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tiny := filepath.Join(dir, "tiny.jsonl")
	if err := os.WriteFile(tiny, []byte(`{"id":"t1","type":"freeform","inputs":{"text":"x"},"answer":"y"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.open()
	b.upload(many)
	b.waitReady(60 * time.Second)
	b.tab("findings")
	firstLine := func() int {
		return eval[int](b, `+document.querySelector('[data-test=finding]').dataset.line`)
	}
	for page, want := range []int{1, 301, 601} {
		if page > 0 {
			b.click(`.pager button:last-child`)
			b.waitJS(fmt.Sprintf(`+document.querySelector('[data-test=finding]').dataset.line === %d`, want), 10*time.Second)
		}
		if got := firstLine(); got != want {
			t.Errorf("page %d starts at line %d, want %d", page+1, got, want)
		}
	}
	for i := 0; i < 5; i++ {
		b.upload(tiny)
		b.waitReady(20 * time.Second)
	}
}

// TestInspectEvalDrop: an Inspect AI .eval log (the hand-written fixture of
// app/peer/testdata, 3 ids × 2 epochs) dropped on the page is read through
// the engine like any other input: the load ends ready, the score cells of
// its run (answer.correct, tool.score) are the CLI's, the reported-vs-
// recomputed table is shown, and the item browser lists its three samples.
func TestInspectEvalDrop(t *testing.T) {
	file := filepath.Join(env.root, "app", "peer", "testdata", "capitals.eval")
	b := newBrowser(t)
	b.open()
	b.drop(file)
	b.waitReady(60 * time.Second)
	checkAgainstCLI(t, b, file)
	cells := b.pageCells("score")
	if !slices.ContainsFunc(cells, func(c cellKey) bool {
		return strings.Contains(c.String(), "tool.score") && strings.Contains(c.String(), "mockllm/model")
	}) {
		t.Errorf("no tool.score cell of run mockllm/model among %d page cells", len(cells))
	}
	if !eval[bool](b, `[...document.querySelectorAll('table')].some(t => t.textContent.includes('recomputed') && t.textContent.includes('0.5833333333333334'))`) {
		t.Error("no reported-vs-recomputed table with the reported accuracy 0.5833333333333334")
	}
	b.tab("items")
	b.waitJS(`!!document.querySelector('[data-test=items-count]')`, 10*time.Second)
	if n := eval[int](b, `document.querySelectorAll('[data-test=item]').length`); n != 3 {
		t.Errorf("item browser shows %d items, want 3", n)
	}
	b.assertPrivate()
}
