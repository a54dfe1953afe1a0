package ui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/finding"
	"eval752/app/ui/wire"
)

// ---- overview ----

func (p *Page) renderOverview() app.UI {
	r := p.res
	return app.Div().Class("overview").Body(
		app.H2().Text("Files read"),
		app.Div().Class("scroll").Body(app.Table().Class("grid").Attr("data-test", "inputs").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("file"),
				app.Th().Scope("col").Text("format"),
				app.Th().Scope("col").Text("size"),
				app.Th().Scope("col").Text("lines"),
				app.Th().Scope("col").Text("sha256"),
			)),
			app.TBody().Body(app.Range(r.Inputs).Slice(func(i int) app.UI {
				in := r.Inputs[i]
				format := string(in.Format)
				if format == "" {
					format = "—"
				}
				return app.Tr().Attr("data-test", "input").Attr("data-path", in.Path).Body(
					app.Th().Scope("row").Class("path").Text(finding.Inert(in.Path)),
					app.Td().Text(format),
					app.Td().Class("num").Text(humanBytes(in.Size)),
					app.Td().Class("num").Text(strconv.Itoa(in.Lines)),
					app.Td().Class("hash").Title(in.SHA256).Text(in.SHA256),
				)
			})),
		)),
		app.If(len(r.PerCode) > 0, func() app.UI {
			return app.Div().Body(
				app.H3().Text("Findings per rule"),
				app.Div().Class("scroll").Body(app.Table().Class("grid narrow").Body(
					app.THead().Body(app.Tr().Body(
						app.Th().Scope("col").Text("rule"),
						app.Th().Scope("col").Text("severity"),
						app.Th().Scope("col").Text("count"),
					)),
					app.TBody().Body(app.Range(r.PerCode).Slice(func(i int) app.UI {
						pc := r.PerCode[i]
						return app.Tr().Body(
							app.Th().Scope("row").Body(app.Button().Class("link").Attr("data-code", pc.Code).Text(pc.Code).OnClick(p.onShowCode)),
							app.Td().Body(sevBadge(pc.Severity)),
							app.Td().Class("num").Text(strconv.Itoa(pc.Count)),
						)
					})),
				)),
			)
		}),
		app.If(p.has("overview"), func() app.UI { return p.reportFor("overview", "") }),
	)
}

// onShowCode opens the findings of the rule the clicked link names.
func (p *Page) onShowCode(ctx app.Context, e app.Event) {
	p.fq = wire.FindingQuery{Code: dataOf(ctx, "code")}
	p.sel, p.win = nil, nil
	p.requestFindings()
	p.tab = "findings"
}

func sevBadge(s finding.Severity) app.UI {
	return app.Span().Class("sev sev-" + s.String()).Text(s.String())
}

// ---- findings ----

const findingsPage = 300

func (p *Page) renderFindings() app.UI {
	pg := p.fpage
	if pg == nil {
		return app.P().Class("muted").Text("loading findings…")
	}
	shown := pg.Findings
	shown = shown[:p.upTo("findings", &p.findRows, pg, len(shown), findingsChunk, false)]
	sel := p.sel
	list := app.Div().Class("findings")
	if len(shown) < len(pg.Findings) {
		list = list.Attr("data-drawing", "true")
	}
	return list.Body(
		app.Div().Class("filters").Attr("role", "group").Attr("aria-label", "filter findings").Body(
			selectBox("f-sev", "severity", p.fq.Severity, []string{"error", "warning", "info"}, func(v string) { p.fq.Severity = v; p.refilter() }),
			selectBox("f-code", "rule", p.fq.Code, pg.Codes, func(v string) { p.fq.Code = v; p.refilter() }),
			selectBox("f-path", "file", p.fq.Path, pg.Paths, func(v string) { p.fq.Path = v; p.refilter() }),
			app.Span().Class("muted").Attr("data-test", "findings-shown").Text(fmt.Sprintf("%d of %d findings", pg.Matches, pg.Total)),
			app.Button().Class("button small").Attr("data-test", "export-shown-findings-csv").
				Attr("data-what", "findings").Attr("data-format", "csv").Attr("data-filtered", "true").
				Title("the findings shown, as filtered").Text("Download CSV").OnClick(p.onExport),
		),
		app.If(pg.Total == 0, func() app.UI {
			return app.P().Class("empty good").Text("No findings: every check passed.")
		}),
		app.Div().Class("split").Body(
			app.Div().Class("list").Body(app.Table().Class("grid findings-table").Body(
				app.THead().Body(app.Tr().Body(
					p.sortHead("severity", ""),
					p.sortHead("rule", "rule"),
					p.sortHead("where", "where"),
					p.sortHead("message", "message"),
				)),
				app.TBody().Body(app.Range(shown).Slice(func(i int) app.UI {
					f := shown[i]
					cls := "finding"
					if sel != nil && *sel == f {
						cls += " selected"
					}
					// the entry name (or the file's base name) and the
					// line; the full path is the button's title
					where := finding.Inert(shortPath(f.Path))
					if f.Line > 0 {
						where += ":" + strconv.Itoa(f.Line)
					}
					return app.Tr().Class(cls).
						Attr("data-test", "finding").
						Attr("data-code", f.Code).
						Attr("data-path", f.Path).
						Attr("data-line", strconv.Itoa(f.Line)).
						Attr("data-severity", f.Severity.String()).
						Attr("data-pointer", f.Pointer).
						Body(
							app.Td().Body(sevBadge(f.Severity)),
							app.Td().Class("code").Text(f.Code),
							app.Td().Body(app.Button().Class("link where").Attr("data-test", "finding-open").
								Attr("data-idx", strconv.Itoa(i)).
								Title("show this line of "+finding.Inert(f.Path)).Text(where).OnClick(p.onOpenFinding)),
							app.Td().Body(
								app.Span().Text(finding.Inert(f.Message)),
								app.If(f.Pointer != "", func() app.UI {
									return app.Span().Class("ptr").Text(" at " + finding.Inert(f.Pointer))
								}),
							),
						)
				})),
			)),
			app.If(sel != nil, func() app.UI { return p.renderFindingDetail(*sel) }),
		),
		app.If(pg.Matches > len(pg.Findings), func() app.UI {
			return app.Div().Class("pager").Body(
				app.Button().Class("button").Disabled(pg.Offset == 0).Text("← previous").OnClick(func(ctx app.Context, e app.Event) {
					p.fq.Offset = max(p.fpage.Offset-findingsPage, 0)
					p.sel, p.win = nil, nil
					p.requestFindings()
				}),
				app.Span().Class("muted").Text(fmt.Sprintf("%d–%d of %d", pg.Offset+1, pg.Offset+len(pg.Findings), pg.Matches)),
				app.Button().Class("button").Disabled(pg.Offset+len(pg.Findings) >= pg.Matches).Text("next →").OnClick(func(ctx app.Context, e app.Event) {
					p.fq.Offset = p.fpage.Offset + findingsPage
					p.sel, p.win = nil, nil
					p.requestFindings()
				}),
			)
		}),
	)
}

// sortHead is a findings column header whose button sorts by it (again:
// the other way round); aria-sort says the order shown.
func (p *Page) sortHead(label, key string) app.UI {
	th := app.Th().Scope("col")
	arrow := ""
	if p.fq.Sort == key {
		dir := "ascending"
		arrow = " ▲"
		if p.fq.Desc {
			dir, arrow = "descending", " ▼"
		}
		th = th.Attr("aria-sort", dir)
	}
	name := key
	if name == "" {
		name = "severity"
	}
	return th.Body(app.Button().Class("sort").Attr("data-test", "f-sort-"+name).Attr("data-key", key).
		Title("sort by " + label).Text(label + arrow).OnClick(p.onSort))
}

func (p *Page) onSort(ctx app.Context, e app.Event) {
	key := dataOf(ctx, "key")
	if p.fq.Sort == key {
		p.fq.Desc = !p.fq.Desc
	} else {
		p.fq.Sort, p.fq.Desc = key, false
	}
	p.refilter()
}

// onTile shows the findings of the severity of the summary tile clicked.
func (p *Page) onTile(ctx app.Context, e app.Event) {
	p.fq = wire.FindingQuery{Severity: dataOf(ctx, "sev"), Sort: p.fq.Sort, Desc: p.fq.Desc}
	p.tab = "findings"
	p.refilter()
}

// closeFinding closes the line panel (its × button, or Esc).
func (p *Page) closeFinding() {
	p.sel, p.win, p.pickFinding = nil, nil, -1
}

// columnOf is the column a finding's message names ("… line 2, column
// 115"), 0 when it names none.
func columnOf(msg string) int {
	m := columnRe.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

var columnRe = regexp.MustCompile(`\bcolumn (\d+)\b`)

func (p *Page) refilter() {
	p.fq.Offset = 0
	p.sel, p.win = nil, nil
	p.requestFindings()
}

// onOpenFinding shows the finding of the clicked row (its index in the
// page of findings shown now) with its line.
func (p *Page) onOpenFinding(ctx app.Context, e app.Event) {
	i, err := strconv.Atoi(dataOf(ctx, "idx"))
	if err != nil || p.fpage == nil || i < 0 || i >= len(p.fpage.Findings) {
		return
	}
	p.openFinding(p.fpage.Offset + i)
}

// openFinding shows finding abs (its index in the filtered, sorted list; on
// the page shown) and asks for its line.
func (p *Page) openFinding(abs int) {
	i := abs - p.fpage.Offset
	if i < 0 || i >= len(p.fpage.Findings) {
		return
	}
	f := p.fpage.Findings[i]
	p.sel, p.selIdx = &f, abs
	p.win = nil
	if f.Line > 0 {
		p.sendJSON(wire.TypeLines, wire.LinesRequest{Path: f.Path, Line: f.Line, Context: 3, Pointer: f.Pointer, Column: columnOf(f.Message)})
	}
}

func (p *Page) renderFindingDetail(f finding.Finding) app.UI {
	return app.Aside().Class("detail").Attr("data-test", "finding-detail").Attr("aria-live", "polite").Body(
		app.Button().Class("close").Attr("data-test", "finding-close").Attr("aria-label", "close (Esc)").Title("close (Esc)").Text("×").
			OnClick(func(ctx app.Context, e app.Event) { p.closeFinding() }),
		app.H3().Body(sevBadge(f.Severity), app.Span().Text(" "+f.Code)),
		app.P().Text(finding.Inert(f.Message)),
		app.If(f.Hint != "", func() app.UI { return app.P().Class("hint").Text("Hint: " + finding.Inert(f.Hint)) }),
		app.P().Class("muted").Text(func() string {
			s := finding.Inert(f.Path)
			if f.Line > 0 {
				s += " line " + strconv.Itoa(f.Line)
			}
			if c := columnOf(f.Message); c > 0 {
				s += ", column " + strconv.Itoa(c)
			}
			if f.Pointer != "" {
				s += " · " + finding.Inert(f.Pointer)
			}
			return s
		}()),
		p.renderWindow(f),
	)
}

func (p *Page) renderWindow(f finding.Finding) app.UI {
	if f.Line <= 0 {
		return app.P().Class("muted").Text("This finding is about the file as a whole.")
	}
	w := p.win
	if w == nil || w.Path != f.Path || w.Line != f.Line {
		return app.P().Class("muted").Text("reading the line…")
	}
	if w.Err != "" {
		return app.P().Class("muted").Text(w.Err)
	}
	// The worker located the pointer on the whole line (Hit) and, for a
	// value far into a long line, cut every line to start just before it
	// (From); short windows from an older answer are located here.
	lead := w.From > 0
	return app.Pre().Class("code-window").Attr("data-test", "line-window").Attr("tabindex", "0").
		Attr("aria-label", "the lines around the finding").Body(
		app.Range(w.Lines).Slice(func(i int) app.UI {
			n := w.First + i
			text := w.Lines[i]
			cut := i < len(w.Truncated) && w.Truncated[i]
			cls := "ln"
			var body []app.UI
			if n == f.Line {
				cls += " target"
				st, en, exact, ok := 0, 0, w.HitExact, len(w.Hit) == 2
				if ok {
					st, en = w.Hit[0], w.Hit[1]
				} else if f.Pointer != "" {
					st, en, exact, ok = wire.PointerSpan(text, f.Pointer)
				}
				if ok && st >= 0 && st <= en && en <= len(text) {
					mark := app.Mark().Class("ptr-hit").Attr("data-test", "pointer-hit")
					if !exact {
						mark = mark.Class("inexact")
					}
					if w.HitColumn {
						// the column of a syntax error: one character,
						// or the end of the line
						mark = app.Mark().Class("col-hit").Attr("data-test", "column-hit").
							Attr("data-column", strconv.Itoa(columnOf(f.Message))).Title("column " + strconv.Itoa(columnOf(f.Message)))
						if st == en {
							mark = mark.Class("at-end").Attr("aria-label", "end of the line")
						}
					}
					body = []app.UI{
						app.Text(text[:st]),
						mark.Text(text[st:en]),
						app.Text(text[en:]),
					}
				}
			}
			if body == nil {
				body = []app.UI{app.Text(text)}
			}
			if lead {
				body = append([]app.UI{app.Span().Class("cut").Text("… ")}, body...)
			}
			if cut {
				body = append(body, app.Span().Class("cut").Text(" … (line cut)"))
			}
			return app.Span().Class(cls).Attr("data-line", strconv.Itoa(n)).Body(
				append([]app.UI{app.Span().Class("lnum").Text(strconv.Itoa(n))}, body...)...,
			)
		}),
	)
}

// selectBox is a labelled <select> whose first option means "all".
func selectBox(id, label, cur string, opts []string, set func(string)) app.UI {
	return app.Label().Class("sel").For(id).Body(
		app.Span().Text(label+" "),
		app.Select().ID(id).Attr("data-test", id).OnChange(func(ctx app.Context, e app.Event) {
			// the first option is "all"; go-app drops an empty value
			// attribute, so its value would read as its text
			if ctx.JSSrc().Get("selectedIndex").Int() <= 0 {
				set("")
				return
			}
			set(ctx.JSSrc().Get("value").String())
		}).Body(
			app.Option().Value("").Selected(cur == "").Text("all"),
			app.Range(opts).Slice(func(i int) app.UI {
				return app.Option().Value(opts[i]).Selected(cur == opts[i]).Text(opts[i])
			}),
		),
	)
}

// shortPath is a finding path as the findings table shows it: the entry of
// a bundle ("sections/a.jsonl"), or the base name of a file.
func shortPath(p string) string {
	if i := strings.LastIndexByte(p, '!'); i >= 0 {
		return p[i+1:]
	}
	if i := strings.LastIndexAny(p, "/\\"); i >= 0 {
		return p[i+1:]
	}
	return p
}
