//go:build !js

package e2e

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"eval752/app/demo"
	"eval752/app/report"
)

var (
	screenshot = flag.String("screenshot", "", "write a screenshot of the page with the demo loaded to this PNG path (TestScreenshot)")
	keepBuild  = flag.Bool("reuse-build", true, "reuse static/web/*.wasm and bin/eval752 when they are newer than every Go source file")
)

// env is what TestMain prepared.
var env struct {
	root    string // repository root
	work    string // temp dir for this run
	bin     string // eval752 binary
	static  string // static dir served (assets + web/)
	demo    string // demo bundle path
	chrome  string
	srv     *server
	baseURL string
}

func TestMain(m *testing.M) {
	flag.Parse()
	code, err := setup()
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e setup: %v\n", err)
		os.Exit(1)
	}
	if code == 0 {
		code = m.Run()
	}
	if env.srv != nil {
		env.srv.stop()
	}
	os.RemoveAll(env.work)
	os.Exit(code)
}

func setup() (int, error) {
	_, file, _, _ := runtime.Caller(0)
	env.root = filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			env.chrome = p
			break
		}
	}
	if env.chrome == "" {
		if p, err := exec.LookPath("chromium"); err == nil {
			env.chrome = p
		}
	}
	if env.chrome == "" {
		return 1, fmt.Errorf("Chromium is not installed: the end-to-end tests need a real browser; run `apt-get install -y chromium`")
	}
	w, err := os.MkdirTemp("", "eval752-e2e-")
	if err != nil {
		return 1, err
	}
	env.work = w
	env.static = filepath.Join(w, "static")
	web := filepath.Join(env.static, "web")
	if err := os.MkdirAll(web, 0o755); err != nil {
		return 1, err
	}
	start := time.Now()
	if err := build(web); err != nil {
		return 1, err
	}
	fmt.Fprintf(os.Stderr, "e2e: build ready in %.1fs\n", time.Since(start).Seconds())
	for _, f := range []string{"app.css", "icon.svg", "icon-192.png", "icon-512.png", "worker.js", "hooks.js"} {
		if err := copyFile(filepath.Join(env.root, "static", f), filepath.Join(env.static, f)); err != nil {
			return 1, err
		}
	}
	if err := copyFile(filepath.Join(goroot(), "lib", "wasm", "wasm_exec.js"), filepath.Join(web, "wasm_exec.js")); err != nil {
		return 1, err
	}
	env.demo = filepath.Join(web, "demo.eval752.zip")
	if out, err := exec.Command(env.bin, "demo", env.demo).CombinedOutput(); err != nil {
		// The demo command is another helper's; fall back to the package.
		fmt.Fprintf(os.Stderr, "e2e: `eval752 demo` failed (%v: %s); building the demo bundle in-process\n", err, out)
		var b bytes.Buffer
		if err := demo.Build(&b); err != nil {
			return 1, err
		}
		if err := os.WriteFile(env.demo, b.Bytes(), 0o644); err != nil {
			return 1, err
		}
	}
	env.srv, err = startServer(env.static)
	if err != nil {
		return 1, err
	}
	env.baseURL = env.srv.url
	return 0, nil
}

func goroot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return runtime.GOROOT()
	}
	return strings.TrimSpace(string(out))
}

// build produces app.wasm, worker.wasm (into web) and the eval752 binary.
// With -reuse-build it takes the Makefile's outputs when they are newer than
// every .go file of the module, so `make test` after `make all` builds
// nothing twice.
func build(web string) error {
	newest := newestSource(env.root)
	made := map[string]string{
		"app.wasm":    filepath.Join(env.root, "static", "web", "app.wasm"),
		"worker.wasm": filepath.Join(env.root, "static", "web", "worker.wasm"),
		"eval752":     filepath.Join(env.root, "bin", "eval752"),
	}
	fresh := func(p string) bool {
		st, err := os.Stat(p)
		return *keepBuild && err == nil && st.ModTime().After(newest)
	}
	type job struct {
		name, pkg string
		wasm      bool
	}
	jobs := []job{{"eval752", "./cmd/eval752", false}, {"worker.wasm", "./wasm/worker", true}, {"app.wasm", "./wasm/app", true}}
	for _, j := range jobs {
		dst := filepath.Join(web, j.name)
		if j.name == "eval752" {
			dst = filepath.Join(env.work, "eval752")
			env.bin = dst
		}
		if fresh(made[j.name]) {
			if err := copyFile(made[j.name], dst); err != nil {
				return err
			}
			continue
		}
		args := []string{"build", "-trimpath", "-o", dst}
		if j.wasm {
			args = append(args, "-ldflags=-s -w")
		}
		args = append(args, j.pkg)
		cmd := exec.Command("go", args...)
		cmd.Dir = env.root
		cmd.Env = os.Environ()
		if j.wasm {
			cmd.Env = append(cmd.Env, "GOOS=js", "GOARCH=wasm")
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return os.Chmod(env.bin, 0o755)
}

func newestSource(root string) time.Time {
	var t time.Time
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "web" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".json") || d.Name() == "go.mod" {
			if info, err := d.Info(); err == nil && info.ModTime().After(t) {
				t = info.ModTime()
			}
		}
		return nil
	})
	return t
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// server is a running `eval752 serve`.
type server struct {
	cmd *exec.Cmd
	url string
}

func startServer(dir string) (*server, error) {
	return startServerAddr(dir, "127.0.0.1:0")
}

func startServerAddr(dir, addr string) (*server, error) {
	cmd := exec.Command(env.bin, "serve", "--addr", addr, "--dir", dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		return nil, fmt.Errorf("serve printed no address: %v", err)
	}
	u := strings.TrimSpace(strings.TrimPrefix(line, "serving "))
	go io.Copy(io.Discard, out)
	return &server{cmd: cmd, url: strings.TrimSuffix(u, "/")}, nil
}

func (s *server) stop() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

// ---- browser ----

// browser is one fresh Chromium (own profile) with one tab, recording every
// request, console message, log entry and CSP violation.
type browser struct {
	t      testing.TB
	ctx    context.Context
	cancel func()

	mu       sync.Mutex
	requests []*network.Request
	logs     []string
	seen     int // loads already waited for
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	return newBrowserFor(t, 3*time.Minute)
}

// newBrowserFor is newBrowser for a test or benchmark whose browser may run
// for up to limit (the scale benchmarks load a million lines).
func newBrowserFor(t testing.TB, limit time.Duration) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(env.chrome),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("headless", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1360, 900),
	)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, tcancel := context.WithTimeout(ctx, limit)
	b := &browser{t: t, ctx: ctx, cancel: func() { tcancel(); cancel(); acancel() }}
	if err := chromedp.Listen(ctx, b.onEvent); err != nil {
		b.cancel()
		t.Fatal(err)
	}
	// Probes installed before any page script: CSP violations and long
	// tasks, read back by the tests.
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: probeJS})
	if err != nil {
		b.cancel()
		t.Fatal(err)
	}
	t.Cleanup(b.cancel)
	return b
}

const probeJS = `
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.violatedDirective + " " + e.blockedURI);
});
window.__eval752draws = [];
window.__longtasks = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
} catch (e) {}
`

func (b *browser) onEvent(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		b.requests = append(b.requests, ev.Request)
	case *cdplog.EventEntryAdded:
		b.logs = append(b.logs, fmt.Sprintf("log %s %s: %s", ev.Entry.Source, ev.Entry.Level, ev.Entry.Text))
	case *cdpruntime.EventConsoleAPICalled:
		var parts []string
		for _, a := range ev.Args {
			if a.Value != nil {
				parts = append(parts, string(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		b.logs = append(b.logs, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(parts, " ")))
	case *cdpruntime.EventExceptionThrown:
		b.logs = append(b.logs, "exception: "+ev.ExceptionDetails.Text)
	}
}

func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("browser: %v\nlogs:\n%s", err, b.logText())
	}
}

func (b *browser) logText() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.logs, "\n")
}

func eval[T any](b *browser, js string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluate %q: %v\nlogs:\n%s", js, err, b.logText())
	}
	return v
}

// waitJS polls a JS boolean expression until it is true.
func (b *browser) waitJS(js string, timeout time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			status, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`((document.querySelector('[data-test=status]')||{}).dataset||{}).state + " " + ((document.querySelector('[data-test=error]')||{}).textContent||"")`))
			b.t.Fatalf("timed out after %v waiting for %s (status %q, err %v)\nlogs:\n%s", timeout, js, status, err, b.logText())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// open navigates to the page and waits until the WASM UI runs.
func (b *browser) open() {
	b.t.Helper()
	b.openURL(env.baseURL + "/")
}

// openURL navigates to u and waits until the WASM UI runs.
func (b *browser) openURL(u string) {
	b.t.Helper()
	b.do(chromedp.Navigate(u))
	b.waitClient()
}

// waitClient waits for the browser-side UI (a fresh page: no load yet).
func (b *browser) waitClient() {
	b.t.Helper()
	b.waitJS(`!!document.querySelector('.app[data-client=true]')`, 30*time.Second)
	b.seen = 0
}

func (b *browser) status() string {
	return eval[string](b, `document.querySelector('[data-test=status]').dataset.state`)
}

// loads is how many loads the page has started.
func (b *browser) loads() int {
	return eval[int](b, `+document.querySelector('[data-test=status]').dataset.loads`)
}

// waitReady waits for status "ready" of a load started after the last
// waitReady (or the page's first), and fails on "error".
func (b *browser) waitReady(timeout time.Duration) {
	b.t.Helper()
	b.waitJS(fmt.Sprintf(`+document.querySelector('[data-test=status]').dataset.loads > %d`, b.seen), timeout)
	b.seen = b.loads()
	b.waitJS(`(() => { const s = document.querySelector('[data-test=status]').dataset.state;
		if (s === 'error') throw new Error(document.querySelector('[data-test=error]').textContent);
		return s === 'ready'; })()`, timeout)
}

// upload gives files to the file input (fires its change event).
func (b *browser) upload(paths ...string) {
	b.t.Helper()
	b.do(chromedp.SetUploadFiles(chromedp.CSS(`[data-test=file-input]`), paths))
}

func (b *browser) click(sel string) {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS(sel)))
}

func (b *browser) tab(name string) {
	b.t.Helper()
	b.click(`[data-test=tab-` + name + `]`)
	b.waitJS(`document.querySelector('[data-test=tab-`+name+`]').getAttribute('aria-selected') === 'true'`, 5*time.Second)
}

// counts reads the error and warning counters.
func (b *browser) counts() (int, int) {
	b.t.Helper()
	v := eval[[]int](b, `[+document.querySelector('[data-test=count-error]').textContent, +document.querySelector('[data-test=count-warning]').textContent]`)
	return v[0], v[1]
}

// assertPrivate checks every request the tab made: same origin (or a blob:
// / data: URL of it), GET or HEAD, and no byte of marker in its URL or body;
// and that no CSP violation was reported.
func (b *browser) assertPrivate(markers ...string) {
	b.t.Helper()
	b.assertPrivateAt(env.baseURL, markers...)
}

// assertPrivateAt is assertPrivate for a page served from base (another
// server than the suite's).
func (b *browser) assertPrivateAt(base string, markers ...string) {
	b.t.Helper()
	origin, _ := url.Parse(base)
	b.mu.Lock()
	reqs := append([]*network.Request(nil), b.requests...)
	logs := append([]string(nil), b.logs...)
	b.mu.Unlock()
	if len(reqs) == 0 {
		b.t.Fatal("no request recorded: the network listener is not working")
	}
	for _, r := range reqs {
		u, err := url.Parse(r.URL)
		if err != nil {
			b.t.Errorf("unparsable request URL %q", r.URL)
			continue
		}
		switch u.Scheme {
		case "data":
		case "blob":
			if !strings.HasPrefix(r.URL, "blob:"+origin.Scheme+"://"+origin.Host+"/") {
				b.t.Errorf("blob URL of another origin: %s", r.URL)
			}
		default:
			if u.Host != origin.Host || u.Scheme != origin.Scheme {
				b.t.Errorf("request to another origin: %s %s", r.Method, r.URL)
			}
		}
		if r.Method != "GET" && r.Method != "HEAD" {
			b.t.Errorf("%s request %s: the page must only read its own files", r.Method, r.URL)
		}
		for _, m := range markers {
			if strings.Contains(r.URL, m) {
				b.t.Errorf("request URL carries the loaded file's content (%q): %s", m, r.URL)
			}
			for _, e := range r.PostDataEntries {
				if bytes.Contains(e.Bytes, []byte(m)) {
					b.t.Errorf("request body carries the loaded file's content: %s", r.URL)
				}
			}
			if r.HasPostData {
				b.t.Errorf("request with a body: %s", r.URL)
			}
		}
	}
	for _, l := range logs {
		if strings.Contains(l, "Content Security Policy") || strings.Contains(l, "Content-Security-Policy") {
			b.t.Errorf("CSP violation reported: %s", l)
		}
	}
	if v := eval[[]string](b, `window.__csp || []`); len(v) > 0 {
		b.t.Errorf("securitypolicyviolation events: %v", v)
	}
}

// ---- expectations from the CLI ----

// cli runs eval752 in the directory of file with the file's base name, so the
// paths in its output are the names the page shows.
func cli(t *testing.T, file string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(env.bin, append(args, filepath.Base(file))...)
	cmd.Dir = filepath.Dir(file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil // exit 1 = the input has errors: the JSON is still printed
	}
	if err != nil {
		t.Fatalf("eval752 %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

type validateOut struct {
	Findings []struct {
		Severity string `json:"severity"`
		Code     string `json:"code"`
		Path     string `json:"path"`
		Line     int    `json:"line"`
	} `json:"findings"`
	Counts struct {
		Error   int `json:"error"`
		Warning int `json:"warning"`
		Info    int `json:"info"`
	} `json:"counts"`
}

// severityFirst is the order the findings view lists by default (docs/ui.md):
// errors, then warnings, then infos, each in the order `eval752 validate`
// reported them.
func (v validateOut) severityFirst() validateOut {
	rank := map[string]int{"error": 0, "warning": 1, "info": 2}
	out := v
	out.Findings = append(out.Findings[:0:0], v.Findings...)
	sort.SliceStable(out.Findings, func(i, j int) bool { return rank[out.Findings[i].Severity] < rank[out.Findings[j].Severity] })
	return out
}

func cliValidate(t *testing.T, file string) validateOut {
	t.Helper()
	var v validateOut
	if err := json.Unmarshal(cli(t, file, "validate", "--json"), &v); err != nil {
		t.Fatalf("validate --json: %v", err)
	}
	return v
}

// cellKey identifies a figure: table, metric, stratum, run and the value at
// full precision.
type cellKey struct {
	Table, Metric, Stratum, Run, Value string
}

func (k cellKey) String() string {
	return fmt.Sprintf("%s/%s/%s/%s=%s", k.Table, k.Metric, k.Stratum, k.Run, k.Value)
}

func reportCells(r *report.Report) []cellKey {
	var out []cellKey
	for _, s := range r.Sections {
		for _, t := range s.Tables {
			for _, row := range t.Rows {
				for j, c := range row {
					if j >= len(t.Columns) || (c.Metric == "" && c.Value == nil) {
						continue
					}
					v := ""
					if c.Value != nil {
						v = formatG(*c.Value)
					}
					out = append(out, cellKey{t.ID, c.Metric, c.Stratum, c.Run, v})
				}
			}
		}
	}
	sortCells(out)
	return out
}

func sortCells(c []cellKey) {
	sort.Slice(c, func(i, j int) bool { return c[i].String() < c[j].String() })
}

// pageCells reads every figure of one report on the page: the
// data-test=metric cells (figures naming a metric) and the data-test=figure
// cells (other numbers).
func (b *browser) pageCells(kind string) []cellKey {
	b.t.Helper()
	// Reports are drawn a few tables (and rows) per frame: wait until
	// nothing is left to draw. Long tables show their first rows only:
	// expand them all, and wait for those rows too.
	b.waitJS(`!document.querySelector('[data-drawing]')`, 60*time.Second)
	eval[bool](b, `(document.querySelectorAll('[data-test=show-all-rows]').forEach(e => e.click()), true)`)
	b.waitJS(`!document.querySelector('[data-test=show-all-rows]')`, 20*time.Second)
	b.waitJS(`!document.querySelector('[data-drawing]')`, 60*time.Second)
	raw := eval[[]map[string]string](b, `[...document.querySelectorAll('[data-test=metric][data-report=`+kind+`], [data-test=figure][data-report=`+kind+`]')].map(e => ({
		Table: e.dataset.table, Metric: e.dataset.metric, Stratum: e.dataset.stratum, Run: e.dataset.run, Value: e.dataset.value}))`)
	out := make([]cellKey, len(raw))
	for i, m := range raw {
		out[i] = cellKey{m["Table"], m["Metric"], m["Stratum"], m["Run"], m["Value"]}
	}
	sortCells(out)
	return out
}

func compareCells(t *testing.T, what string, page, want []cellKey) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: the CLI report has no figures; the comparison would prove nothing", what)
	}
	if len(page) != len(want) {
		t.Errorf("%s: page shows %d figures, CLI has %d", what, len(page), len(want))
	}
	for i := 0; i < min(len(page), len(want)); i++ {
		if page[i] != want[i] {
			t.Errorf("%s: figure %d: page %v, CLI %v", what, i, page[i], want[i])
			return
		}
	}
}

// downloads makes the tab save downloads into a fresh directory.
func (b *browser) downloads() string {
	b.t.Helper()
	dir := b.t.TempDir()
	yes := true
	_, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir, EventsEnabled: &yes})
	if err != nil {
		b.t.Fatal(err)
	}
	return dir
}

// waitFile waits until name exists in dir and Chromium finished writing it.
func waitFile(t *testing.T, dir, name string, timeout time.Duration) []byte {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		p := filepath.Join(dir, name)
		if b, err := os.ReadFile(p); err == nil {
			if _, err := os.Stat(p + ".crdownload"); os.IsNotExist(err) {
				return b
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	t.Fatalf("download %s did not arrive in %v (dir has %v)", name, timeout, names)
	return nil
}

// exportName is the download name of an export of bundle (docs/ui.md): the
// bundle's meta.json name with every run of characters other than letters,
// digits, '.', '_' and '-' made one '-', then "-<what>".
func exportName(t *testing.T, bundle, what string) string {
	t.Helper()
	zr, err := zip.OpenReader(bundle)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var meta struct {
		Name string `json:"name"`
	}
	for _, f := range zr.File {
		if f.Name == "meta.json" {
			rc, _ := f.Open()
			json.NewDecoder(rc).Decode(&meta)
			rc.Close()
		}
	}
	if meta.Name == "" {
		t.Fatalf("%s has no meta.json name", bundle)
	}
	name := strings.Trim(regexp.MustCompile(`[^A-Za-z0-9._-]+`).ReplaceAllString(meta.Name, "-"), "-.")
	return name + "-" + what
}

func formatG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
