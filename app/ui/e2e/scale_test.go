//go:build !js

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"eval752/app/dataset"
	"eval752/app/engine"
	"eval752/app/ui/workside"
)

// Large sets in the page (issue 10, item 3): the memory the tab needs, read
// from the operating system — the VmRSS and VmHWM (peak resident set) of
// Chromium's renderer process in /proc/<pid>/status. The page, its go-app
// WASM and the core's Web Worker (a dedicated worker) all live in the
// tab's one renderer process, so its peak is the tab's peak, JS copies and
// both WebAssembly memories included. (performance.measureUserAgentSpecificMemory
// needs a cross-origin-isolated page, and CDP SystemInfo.getProcessInfo
// gives CPU time only.)

// procMem reads VmRSS and VmHWM (bytes) of pid.
func procMem(pid int) (rss, hwm int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		n, _ := strconv.ParseInt(f[0], 10, 64) // kB
		if k == "VmRSS" {
			rss = n << 10
		} else {
			hwm = n << 10
		}
	}
	return rss, hwm, nil
}

// descendants lists every process below root (by the parent pid in
// /proc/<pid>/stat).
func descendants(root int) []int {
	ents, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, cut after ')'
		s := string(b)
		if k := strings.LastIndexByte(s, ')'); k >= 0 {
			if f := strings.Fields(s[k+1:]); len(f) > 1 {
				parent[pid], _ = strconv.Atoi(f[1])
			}
		}
	}
	var out []int
	var walk func(p int)
	walk = func(p int) {
		for c, pp := range parent {
			if pp == p {
				out = append(out, c)
				walk(c)
			}
		}
	}
	walk(root)
	return out
}

// tabMem is the renderer of the tab: of the browser's renderer processes
// the one with the largest resident set (a headless browser with one tab
// may keep a spare renderer), with its peak.
type tabMem struct {
	PID      int
	RSS, HWM int64
}

func (b *browser) tabMem() tabMem {
	b.t.Helper()
	proc := chromedp.FromContext(b.ctx).Browser.Process()
	if proc == nil {
		b.t.Fatal("no browser process: memory cannot be read")
	}
	var best tabMem
	for _, pid := range descendants(proc.Pid) {
		cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil || !bytes.Contains(cmd, []byte("--type=renderer")) || bytes.Contains(cmd, []byte("--extension-process")) {
			continue
		}
		rss, hwm, err := procMem(pid)
		if err == nil && rss > best.RSS {
			best = tabMem{pid, rss, hwm}
		}
	}
	if best.PID == 0 {
		b.t.Fatal("no renderer process found below the browser")
	}
	return best
}

// longestTaskSince is the longest PerformanceObserver longtask that started
// at or after t0 (performance.now() milliseconds), and how many there were.
func (b *browser) longestTaskSince(t0 float64) (longest float64, count int) {
	for _, e := range eval[[][]float64](b, `window.__longtasks`) {
		if e[0] >= t0 {
			count++
			longest = max(longest, e[1])
		}
	}
	return longest, count
}

// coreMillis is the worker's time of the last load, from the status line's
// "(core: N ms)"; -1 when it does not show one.
func (b *browser) coreMillis() float64 {
	txt := eval[string](b, `(document.querySelector('.status-line')||{}).textContent||""`)
	k := strings.Index(txt, "core: ")
	if k < 0 {
		return -1
	}
	f := strings.Fields(txt[k+6:])
	if len(f) == 0 {
		return -1
	}
	n, err := strconv.ParseFloat(strings.TrimSuffix(strings.ReplaceAll(f[0], ",", ""), ")"), 64)
	if err != nil {
		return -1
	}
	if len(f) > 1 && strings.HasPrefix(f[1], "s") {
		n *= 1000
	}
	return n
}

// waitDone waits until the load started after b.seen ends, ready or error,
// and returns the state and, on error, the page's message.
func (b *browser) waitDone(timeout time.Duration) (state, msg string) {
	b.t.Helper()
	b.waitJS(fmt.Sprintf(`+document.querySelector('[data-test=status]').dataset.loads > %d`, b.seen), timeout)
	b.seen = b.loads()
	b.waitJS(`['ready','error'].includes(document.querySelector('[data-test=status]').dataset.state)`, timeout)
	state = b.status()
	if state == "error" {
		msg = eval[string](b, `document.querySelector('[data-test=error]').textContent`)
	}
	return state, msg
}

// genItems writes n eval752 items and one run's results (the shape of
// scripts/gen-sets.go -kind items, the README's large sets) into a new
// folder and returns it.
func genItems(t testing.TB, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), fmt.Sprintf("items-%d", n))
	cmd := exec.Command("go", "run", "scripts/gen-sets.go", "-kind", "items", "-n", strconv.Itoa(n), "-out", dir)
	cmd.Dir = env.root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen-sets: %v\n%s", err, out)
	}
	return dir
}

// setFiles are the set's inputs as the page gets them: every file of dir
// (items.jsonl and results.jsonl of a gen-sets.go items set; qrels and run
// of gen-trec-bench.go), their total size and the lines of the largest.
func setFiles(t testing.TB, dir string) (paths []string, size int64, lines int) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var largest string
	var most int64
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		size += st.Size()
		if st.Size() > most {
			largest, most = p, st.Size()
		}
		paths = append(paths, p)
	}
	if len(paths) == 0 {
		t.Fatalf("%s has no files", dir)
	}
	f, err := os.Open(largest)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	for {
		n, err := f.Read(buf)
		lines += bytes.Count(buf[:n], []byte{'\n'})
		if err != nil {
			break
		}
	}
	return paths, size, lines
}

// cliCounts runs `eval752 validate --json` natively on files (in their
// folder, as the page names them) and returns its error and warning counts.
func cliCounts(t testing.TB, files []string) (errs, warns int) {
	t.Helper()
	args := []string{"validate", "--json"}
	for _, f := range files {
		args = append(args, filepath.Base(f))
	}
	cmd := exec.Command(env.bin, args...)
	cmd.Dir = filepath.Dir(files[0])
	cmd.Env = append(os.Environ(), "GOMEMLIMIT=4GiB")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		t.Fatalf("eval752 %v: %v\n%s", args, err, stderr.String())
	}
	var v struct {
		Counts struct{ Error, Warning int } `json:"counts"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("validate --json: %v", err)
	}
	return v.Counts.Error, v.Counts.Warning
}

// setLoad is one load of a set in a fresh browser.
type setLoad struct {
	State, Msg     string
	Ready          time.Duration // upload → ready (or error)
	Before, After  tabMem        // renderer before the upload and at the end
	Longest        float64       // longest long task during the load, ms
	Core           float64       // worker time, ms
	Errors, Warns  int           // the page's counters
	Size           int64
	Lines          int
	PageLimitBytes float64 // eval752Test.memoryLimit given (0: the page's own)
	UIWasm         float64 // the page's (go-app) WebAssembly memory at the end, bytes
	ResultChars    float64 // characters of the strings the worker's result message carried
}

// sizeProbeJS records, in the page, the WebAssembly memories instantiated
// (the go-app UI's; the core's lives in the worker, out of reach) and the
// characters of the string fields of each type of message the worker posts.
const sizeProbeJS = `
window.__wasmMem = [];
(() => {
  const wrap = (f) => async function (...a) {
    const r = await f.apply(this, a);
    try { window.__wasmMem.push((r.instance || r).exports.mem); } catch (e) {}
    return r;
  };
  if (WebAssembly.instantiateStreaming) WebAssembly.instantiateStreaming = wrap(WebAssembly.instantiateStreaming);
  WebAssembly.instantiate = wrap(WebAssembly.instantiate);
  window.__msgChars = {};
  const W = window.Worker;
  window.Worker = function (...a) {
    const w = new W(...a);
    w.addEventListener("message", (e) => {
      const d = e.data || {};
      let n = 0;
      for (const k in d) if (typeof d[k] === "string") n += d[k].length;
      window.__msgChars[d.type] = (window.__msgChars[d.type] || 0) + n;
    });
    return w;
  };
  window.Worker.prototype = W.prototype;
})();
`

func loadSet(t testing.TB, files []string, limit float64, timeout time.Duration) setLoad {
	t.Helper()
	var l setLoad
	b := newBrowserFor(t, timeout+time.Minute)
	defer b.cancel()
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: sizeProbeJS}); err != nil {
		t.Fatal(err)
	}
	b.open()
	if limit > 0 {
		eval[bool](b, fmt.Sprintf(`window.eval752Test = {memoryLimit: %g}; true`, limit))
		l.PageLimitBytes = limit
	}
	l.Before = b.tabMem()
	t0 := eval[float64](b, `performance.now()`)
	start := time.Now()
	b.upload(files...)
	l.State, l.Msg = b.waitDone(timeout)
	l.Ready = time.Since(start)
	l.After = b.tabMem()
	l.Longest, _ = b.longestTaskSince(t0)
	l.UIWasm = eval[float64](b, `(window.__wasmMem||[]).reduce((s, m) => s + m.buffer.byteLength, 0)`)
	l.ResultChars = eval[float64](b, `(window.__msgChars||{}).result||0`)
	if l.State == "ready" {
		l.Core = b.coreMillis()
		l.Errors, l.Warns = b.counts()
	}
	return l
}

// TestLargeSetInBudget is the scaled-down twin of the million-line load
// (README "Benchmarks", make bench-page): 50,000 eval752 items and one run's
// results, generated at test time (scripts/gen-sets.go -kind items, 24 MB),
// must reach "ready" with the CLI's counts, and the tab's memory growth over
// the load (renderer peak RSS at the end minus its RSS before the upload)
// must stay within the memory budget the page refuses inputs by
// (dataset.EstimateInputs: the input's bytes × the budget per byte of its
// format, plus dataset.PageOverhead; docs/formats.md "Memory budget"). The
// set is large enough that its estimate is over the worker's heap floor
// (workside.MinHeapLimit), so the worker holds its heap to the estimate:
// a page that keeps more per item than the budget says cannot, and fails
// here before a real set runs out of memory.
func TestLargeSetInBudget(t *testing.T) {
	const n = 50000
	dir := genItems(t, n)
	files, size, lines := setFiles(t, dir)
	if len(files) != 2 || lines != n {
		t.Fatalf("generated %v with %d item lines, want items.jsonl and results.jsonl of %d", files, lines, n)
	}
	l := loadSet(t, files, 0, 10*time.Minute) // a hang guard only: 3.5–4 min under a load average of 15–20
	if l.State != "ready" {
		t.Fatalf("the page ended %q: %s", l.State, l.Msg)
	}
	e, w := cliCounts(t, files)
	if l.Errors != e || l.Warns != w {
		t.Errorf("counts %d/%d, CLI %d/%d", l.Errors, l.Warns, e, w)
	}
	grown := l.After.HWM - l.Before.RSS
	budget := pageBudget(t, files)
	if budget-dataset.PageOverhead <= workside.MinHeapLimit {
		t.Fatalf("the set's estimate %d MiB is under the worker's heap floor: too small to check the budget per item", (budget-dataset.PageOverhead)>>20)
	}
	t.Logf("%d items + results (%.1f MB): ready in %v (core %.0f ms), renderer %d → peak %d MiB: %.0f B per item, %.1f per input byte; budget %.1f MiB (%.0f B per item); page WASM memory %.0f MiB; result message %.0f chars; longest UI block %.0f ms",
		n, float64(size)/1e6, l.Ready.Round(time.Millisecond), l.Core, l.Before.RSS>>20, l.After.HWM>>20,
		float64(grown)/n, float64(grown)/float64(size), float64(budget)/(1<<20), float64(budget)/n, l.UIWasm/(1<<20), l.ResultChars, l.Longest)
	if grown > budget {
		t.Errorf("the tab grew by %d MiB for %d items (%.0f B per item), over the memory budget of %d MiB (%.0f B per item) that the page's too-large refusal assumes",
			grown>>20, n, float64(grown)/n, budget>>20, float64(budget)/n)
	}
}

// pageBudget is what the page assumes files need before it reads them:
// dataset.EstimateInputs (their sizes × the budget per byte of their
// formats) plus dataset.PageOverhead; workside.TooLarge refuses an input
// whose budget is over the page's limit.
func pageBudget(t testing.TB, files []string) int64 {
	t.Helper()
	var ins []dataset.Input
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		st, _ := f.Stat()
		ins = append(ins, dataset.Input{Name: filepath.Base(p), R: f, Size: st.Size()})
	}
	e, err := engine.EstimateInputs(context.Background(), ins, dataset.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return e.Bytes + dataset.PageOverhead
}

var (
	pageSets  = flag.String("page-sets", "", "BenchmarkPage: comma-separated folders of items.jsonl + results.jsonl (scripts/gen-sets.go -kind items) to load")
	pageRuns  = flag.Int("page-runs", 3, "BenchmarkPage: runs of the demo (0: none) and of each set under 200k lines (at least 1; the median is printed)")
	pageBig   = flag.Int("page-big-runs", 1, "BenchmarkPage: runs of each set of 200k lines or more")
	pageLimit = flag.Float64("page-limit", 0, "BenchmarkPage: the page's memory limit in bytes (eval752Test.memoryLimit; 0 = the page's own)")
	pageWait  = flag.Duration("page-timeout", 90*time.Minute, "BenchmarkPage: how long one set's load may take")
)

// BenchmarkPage is the scripted browser benchmark (make bench-page,
// scripts/bench-page.sh): a cold navigation to the UI, the demo bundle to
// "ready", the longest UI-thread block and the worker's time, then each
// -page-sets folder to "ready" with the tab's renderer memory and the
// counts compared with `eval752 validate --json`. Each figure is the median
// of -page-runs loads, each in a fresh browser; the table is printed at the
// end (b.ReportMetric carries the demo medians).
func BenchmarkPage(bb *testing.B) {
	var rows [][2]string
	row := func(what, fig string) {
		rows = append(rows, [2]string{what, fig})
		fmt.Printf("page: %s: %s\n", what, fig)
	}
	for i := 0; i < bb.N; i++ {
		var ui, ready, longest, core []float64
		// the longest long task while each tab of the demo's result opens
		// (until drawn whole), by tab
		tabs := []string{"findings", "scores", "compare", "audit", "items"}
		tabLongest := map[string][]float64{}
		for r := 0; r < *pageRuns; r++ {
			b := newBrowserFor(bb, 5*time.Minute)
			start := time.Now()
			b.open()
			ui = append(ui, ms(time.Since(start)))
			t0 := eval[float64](b, `performance.now()`)
			s1 := time.Now()
			b.click(`[data-test=demo-button]`)
			if st, msg := b.waitDone(3 * time.Minute); st != "ready" {
				bb.Fatalf("demo: %s %s", st, msg)
			}
			ready = append(ready, ms(time.Since(s1)))
			l, _ := b.longestTaskSince(t0)
			longest = append(longest, l)
			core = append(core, b.coreMillis())
			for _, tab := range tabs {
				t1 := eval[float64](b, `performance.now()`)
				b.tab(tab)
				b.waitJS(`!!document.querySelector('[data-panel]:not([hidden])')`, 30*time.Second)
				l, _ := b.longestSince(t1)
				tabLongest[tab] = append(tabLongest[tab], l)
			}
			b.cancel()
		}
		if *pageRuns > 0 {
			row("navigation → UI running (cold, fresh profile)", msFig(ui))
			row("demo button → ready", msFig(ready))
			row("demo load: longest UI-thread long task", msFig(longest))
			row("demo load: worker time (core)", msFig(core))
			for _, tab := range tabs {
				row("demo: "+tab+" tab opens (until drawn whole): longest UI-thread long task", msFig(tabLongest[tab]))
			}
			bb.ReportMetric(median(ui), "ms-to-ui")
			bb.ReportMetric(median(ready), "ms-demo-ready")
			bb.ReportMetric(median(longest), "ms-longest-task")
			bb.ReportMetric(median(core), "ms-worker")
		}
		for _, dir := range strings.Split(*pageSets, ",") {
			if dir == "" {
				continue
			}
			files, size, lines := setFiles(bb, dir)
			est := pageBudget(bb, files)
			// the CLI's counts, computed once a load is ready (a refused
			// input may be one the native validate needs gigabytes for)
			e, w, counted := 0, 0, false
			runs := max(1, *pageRuns)
			if lines >= 200000 {
				runs = *pageBig
			}
			var ready, hwm, grown, longest, core, uiw, res []float64
			var states []string
			for r := 0; r < runs; r++ {
				l := loadSet(bb, files, *pageLimit, *pageWait)
				ready = append(ready, ms(l.Ready))
				hwm = append(hwm, float64(l.After.HWM))
				grown = append(grown, float64(l.After.HWM-l.Before.RSS))
				longest = append(longest, l.Longest)
				uiw = append(uiw, l.UIWasm)
				res = append(res, l.ResultChars)
				if l.State == "ready" && !counted {
					e, w = cliCounts(bb, files)
					counted = true
				}
				switch {
				case l.State != "ready":
					states = append(states, l.State+": "+l.Msg)
				case l.Errors == e && l.Warns == w:
					states = append(states, fmt.Sprintf("ready, counts %d/%d = CLI", e, w))
					core = append(core, l.Core)
				default:
					states = append(states, fmt.Sprintf("ready, counts %d/%d ≠ CLI %d/%d", l.Errors, l.Warns, e, w))
					core = append(core, l.Core)
				}
			}
			name := fmt.Sprintf("%s (%d lines in its largest file, %.1f MB, page budget %.0f MB)", filepath.Base(dir), lines, float64(size)/1e6, float64(est)/1e6)
			row(name+": upload → end of load", msFig(ready))
			if len(core) > 0 {
				row(name+": worker time (core)", msFig(core))
			}
			row(name+": renderer peak RSS (VmHWM)", mibFig(hwm))
			row(name+": renderer growth over the load, per item", fmt.Sprintf("%.0f B (%.1f per input byte)", median(grown)/float64(lines), median(grown)/float64(size)))
			row(name+": of it the page's (go-app) WebAssembly memory", mibFig(uiw))
			row(name+": result message from the worker (string characters)", fmt.Sprintf("%.0f", median(res)))
			row(name+": longest UI-thread long task", msFig(longest))
			row(name+": outcome", strings.Join(states, "; "))
		}
	}
	fmt.Println("\n| what | median (runs) |\n|---|---|")
	for _, r := range rows {
		fmt.Printf("| %s | %s |\n", r[0], r[1])
	}
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func msFig(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.0f ms (%s)", median(v), strings.Join(parts, " / "))
}

func mibFig(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.0f", x/(1<<20))
	}
	return fmt.Sprintf("%.0f MiB (%s)", median(v)/(1<<20), strings.Join(parts, " / "))
}
