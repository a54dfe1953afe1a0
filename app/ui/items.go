package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/finding"
	"eval752/app/model"
	"eval752/app/report"
	"eval752/app/ui/wire"
)

const itemsPerPage = 25

// renderItems is the item browser: the worker filters and pages the items
// (they stay there; only one page crosses to the UI thread).
func (p *Page) renderItems() app.UI {
	if p.meta.Items == 0 {
		return app.P().Class("empty").Text("No items: these inputs hold no annotated item.")
	}
	pg := p.ipage
	runs := p.res.Runs
	return app.Div().Class("items").Body(
		app.Div().Class("filters").Attr("role", "group").Attr("aria-label", "filter items").Body(
			app.Label().Class("sel").For("i-search").Body(
				app.Span().Text("search "),
				app.Input().Type("search").ID("i-search").Placeholder("id or question").Value(p.iq.Search).
					OnInput(func(ctx app.Context, e app.Event) {
						p.iq.Search, p.iq.Offset = ctx.JSSrc().Get("value").String(), 0
						p.requestItems()
					}),
			),
			checkBox("i-fail", "failures only", p.iq.Failures, func(v bool) { p.iq.Failures, p.iq.Offset = v, 0; p.requestItems() }),
			errorCodeSelect(p.iq.ErrorCode, func(v string) { p.iq.ErrorCode, p.iq.Offset = v, 0; p.requestItems() }),
			p.itemSort(),
			checkBox("i-desc", "reversed", p.iq.Desc, func(v bool) { p.iq.Desc, p.iq.Offset = v, 0; p.requestItems() }),
			app.If(len(runs) >= 2, func() app.UI {
				return app.Span().Class("group").Body(
					checkBox("i-diff", "differences only", p.iq.Differences, func(v bool) { p.iq.Differences, p.iq.Offset = v, 0; p.requestItems() }),
					runSelect("i-run-a", "between", p.iq.RunA, runs, 0, func(v string) { p.iq.RunA, p.iq.Offset = v, 0; p.requestItems() }),
					runSelect("i-run-b", "and", p.iq.RunB, runs, 1, func(v string) { p.iq.RunB, p.iq.Offset = v, 0; p.requestItems() }),
				)
			}),
		),
		app.If(p.iq.ID != "", func() app.UI {
			return app.P().Class("open-item").Body(
				app.Span().Text("item "), app.Strong().Text(p.iq.ID), app.Span().Text(" · "),
				app.Button().Class("link").Attr("data-test", "items-all").Text("show all items").OnClick(p.onAllItems),
			)
		}),
		app.If(pg == nil, func() app.UI { return app.P().Class("muted").Text("loading items…") }),
		app.If(pg != nil, func() app.UI {
			// the cards are drawn a few per frame; the count line comes
			// with the last of them (so "items-count shown" means every
			// card of the page is there)
			shown := p.upTo("items", &p.itemRows, pg, len(pg.Items), itemsChunk, true)
			count := fmt.Sprintf("%d of %d items match; showing %d–%d",
				pg.Matches, pg.Total, min(pg.Offset+1, pg.Matches), min(pg.Offset+len(pg.Items), pg.Matches))
			return app.Div().Body(
				app.If(shown >= len(pg.Items), func() app.UI {
					return app.P().Class("muted").Attr("data-test", "items-count").Text(count)
				}).Else(func() app.UI {
					return app.P().Class("muted pending").Attr("data-drawing", "true").Text(count + " (drawing…)")
				}),
				app.Range(pg.Items[:shown]).Slice(func(i int) app.UI { return p.renderItem(pg.Items[i]) }),
				app.Div().Class("pager").Body(
					app.Button().Class("button").Disabled(pg.Offset == 0).Text("← previous").OnClick(func(ctx app.Context, e app.Event) {
						p.iq.Offset = max(p.ipage.Offset-itemsPerPage, 0)
						p.requestItems()
					}),
					app.Button().Class("button").Disabled(pg.Offset+len(pg.Items) >= pg.Matches).Text("next →").OnClick(func(ctx app.Context, e app.Event) {
						p.iq.Offset = p.ipage.Offset + itemsPerPage
						p.requestItems()
					}),
				),
			)
		}),
	)
}

// errorCodeSelect filters the items by a seed 003 §9 error code (derived
// or reviewed) of some run; "" = any item.
func errorCodeSelect(cur string, set func(string)) app.UI {
	codes := []string{""}
	for _, c := range model.ErrorTaxonomy {
		codes = append(codes, c.Code)
	}
	return app.Label().Class("sel").For("i-error").Body(
		app.Span().Text("error code "),
		app.Select().ID("i-error").Attr("data-test", "i-error").OnChange(func(ctx app.Context, e app.Event) {
			set(ctx.JSSrc().Get("value").String())
		}).Body(app.Range(codes).Slice(func(i int) app.UI {
			label := codes[i]
			if label == "" {
				label = "any"
			}
			return app.Option().Value(codes[i]).Selected(cur == codes[i]).Text(label)
		})),
	)
}

// onAllItems closes the open item (back to the filtered list).
func (p *Page) onAllItems(ctx app.Context, e app.Event) {
	p.iq.ID, p.iq.Offset = "", 0
	p.requestItems()
}

// itemHref is the link that opens item id in the Items view.
func itemHref(id string) string {
	return "#" + viewState{View: "items", Item: id, Finding: -1}.encode()
}

// itemSort is the items' sort: as read, by id, differences first, or by a
// per-item metric of run A (the metrics of the page shown).
func (p *Page) itemSort() app.UI {
	opts := []string{"id"}
	labels := map[string]string{"": "as read", "id": "id", "differ": "differences first"}
	if len(p.res.Runs) >= 2 {
		opts = append(opts, "differ")
	}
	seen := map[string]bool{}
	var metrics []string
	if p.ipage != nil {
		for _, it := range p.ipage.Items {
			for _, r := range it.Runs {
				for k := range r.Scores.Names() {
					if !seen[k] {
						seen[k] = true
						metrics = append(metrics, k)
					}
				}
			}
		}
	}
	if cur := strings.TrimPrefix(p.iq.Sort, "metric:"); cur != p.iq.Sort && !seen[cur] {
		metrics = append(metrics, cur)
	}
	sort.Strings(metrics)
	for _, m := range metrics {
		opts = append(opts, "metric:"+m)
		labels["metric:"+m] = m
	}
	return app.Label().Class("sel").For("i-sort").Body(
		app.Span().Text("sort "),
		app.Select().ID("i-sort").Attr("data-test", "i-sort").OnChange(func(ctx app.Context, e app.Event) {
			v := ""
			if ctx.JSSrc().Get("selectedIndex").Int() > 0 {
				v = ctx.JSSrc().Get("value").String()
			}
			p.iq.Sort, p.iq.Offset = v, 0
			p.requestItems()
		}).Body(
			app.Option().Value("").Selected(p.iq.Sort == "").Text("as read"),
			app.Range(opts).Slice(func(i int) app.UI {
				return app.Option().Value(opts[i]).Selected(p.iq.Sort == opts[i]).Text(labels[opts[i]])
			}),
		),
	)
}

// keyMetrics are the per-item metrics a card shows first (when present);
// the others wait behind a disclosure.
var keyMetrics = []string{"answer.correct", "answer.exact", "answer.mcq_partial", "answer.numeric", "code.passed",
	"hit@1", "recall@10", "ndcg@10", "mrr", "evidence_group_recall@10", "complete_hit@10", "refusal.correct"}

func checkBox(id, label string, cur bool, set func(bool)) app.UI {
	return app.Label().Class("check").For(id).Body(
		app.Input().Type("checkbox").ID(id).Attr("data-test", id).Checked(cur).OnChange(func(ctx app.Context, e app.Event) {
			set(ctx.JSSrc().Get("checked").Bool())
		}),
		app.Span().Text(" "+label),
	)
}

func runSelect(id, label, cur string, runs []string, def int, set func(string)) app.UI {
	if cur == "" && def < len(runs) {
		cur = runs[def]
	}
	return app.Label().Class("sel").For(id).Body(
		app.Span().Text(label+" "),
		app.Select().ID(id).Attr("data-test", id).OnChange(func(ctx app.Context, e app.Event) {
			set(ctx.JSSrc().Get("value").String())
		}).Body(app.Range(runs).Slice(func(i int) app.UI {
			return app.Option().Value(runs[i]).Selected(cur == runs[i]).Text(runs[i])
		})),
	)
}

// onRaw opens (or closes) the raw record of the item the button names:
// its line as read and the findings on that line with their pointers.
func (p *Page) onRaw(ctx app.Context, e app.Event) {
	id := dataOf(ctx, "id")
	if p.rawItem == id {
		p.rawItem = ""
		return
	}
	line, _ := strconv.Atoi(dataOf(ctx, "line"))
	path := dataOf(ctx, "path")
	p.rawItem, p.rawLine, p.rawWin, p.rawFinds = id, line, nil, nil
	p.rawLinesID = p.sendJSON(wire.TypeLines, wire.LinesRequest{Path: path, Line: line, Context: 0})
	p.rawFindID = p.sendJSON(wire.TypeFindings, wire.FindingQuery{Path: path, Sort: "order", Limit: 1000})
}

// renderRaw is the raw-record view: the record (indented when it is one
// JSON object) and the findings on its line, each with its JSON pointer.
func (p *Page) renderRaw(it report.ItemDetail) app.UI {
	w := p.rawWin
	text := "reading the record…"
	if w != nil {
		switch {
		case w.Err != "":
			text = w.Err
		case len(w.Lines) > 0:
			text = w.Lines[0]
			var buf bytes.Buffer
			if json.Indent(&buf, []byte(text), "", "  ") == nil {
				text = buf.String()
			}
		}
	}
	return app.Div().Class("raw").Attr("data-test", "raw-view").Body(
		app.Pre().Class("schema").Attr("data-test", "raw-record").Text(text),
		app.If(len(p.rawFinds) == 0 && w != nil, func() app.UI { return app.P().Class("muted").Text("No finding on this record.") }),
		app.Ul().Class("raw-findings").Body(app.Range(p.rawFinds).Slice(func(i int) app.UI {
			f := p.rawFinds[i]
			ptr := f.Pointer
			if ptr == "" {
				ptr = "(the record)"
			}
			return app.Li().Attr("data-test", "raw-finding").Attr("data-pointer", f.Pointer).Attr("data-code", f.Code).Body(
				sevBadge(f.Severity), app.Span().Class("ptr").Text(" "+ptr+" "), app.Span().Class("code").Text(f.Code+": "), app.Span().Text(f.Message))
		})),
	)
}

func (p *Page) renderItem(it report.ItemDetail) app.UI {
	var strata []string
	for k, v := range it.Strata {
		strata = append(strata, k+"="+v)
	}
	sort.Strings(strata)
	var gold, judged []report.GoldDetail
	for _, g := range it.Gold {
		if g.Judgment != nil {
			judged = append(judged, g)
		} else {
			gold = append(gold, g)
		}
	}
	return app.Article().Class("item").Attr("data-test", "item").Attr("data-id", it.ID).Body(
		app.Header().Class("item-head").Body(
			app.A().Class("item-id").Href(itemHref(it.ID)).Attr("data-test", "item-link").Title("open this item (a link you can share)").Text(finding.Inert(it.ID)),
			app.Span().Class("muted").Text(fmt.Sprintf(" %s:%d · %s", finding.Inert(it.Path), it.Line, it.Format)),
			app.Range(strata).Slice(func(i int) app.UI { return app.Span().Class("chip").Text(strata[i]) }),
			app.If(it.Line > 0, func() app.UI {
				return app.Button().Class("button small").Attr("data-test", "item-raw").Attr("data-id", it.ID).
					Attr("data-path", it.Path).Attr("data-line", strconv.Itoa(it.Line)).
					Attr("aria-expanded", strconv.FormatBool(p.rawItem == it.ID)).Text("raw record").OnClick(p.onRaw)
			}),
		),
		app.If(p.rawItem == it.ID, func() app.UI { return p.renderRaw(it) }),
		app.If(it.Question != "", func() app.UI { return app.P().Class("question").Text(it.Question) }),
		app.If(len(it.Choices) > 0, func() app.UI {
			return app.Ol().Class("choices").Attr("data-test", "choices").Attr("type", "A").Body(app.Range(it.Choices).Slice(func(i int) app.UI {
				c := it.Choices[i]
				li := app.Li().Attr("data-test", "choice").Attr("data-answer", strconv.FormatBool(c.Answer))
				if c.Answer {
					return li.Class("answer").Body(app.Span().Text(c.Text), app.Span().Class("badge pass").Text("✓ answer"))
				}
				return li.Text(c.Text)
			}))
		}),
		app.Div().Class("item-cols").Body(
			app.Div().Class("col gold").Body(
				app.H5().Text("gold"),
				app.If(it.Reference != "", func() app.UI {
					return app.P().Body(app.Span().Class("muted").Text("reference: "), app.Span().Class("ref").Text(it.Reference))
				}),
				app.If(len(gold) == 0 && it.Reference == "", func() app.UI { return app.P().Class("muted").Text("no gold evidence") }),
				app.Ul().Class("gold-list").Body(app.Range(gold).Slice(func(i int) app.UI { return goldLine(gold[i]) })),
				app.If(len(judged) > 0, func() app.UI {
					return app.Details().Class("judged").Body(
						app.Summary().Text(fmt.Sprintf("%d graded judgments (seed 003 anchors, 0–3)", len(judged))),
						app.Ul().Class("gold-list").Body(app.Range(judged).Slice(func(i int) app.UI { return goldLine(judged[i]) })),
					)
				}),
			),
			app.Range(it.Runs).Slice(func(i int) app.UI { return renderRunItem(it.Runs[i]) }),
		),
	)
}

// goldLine is one gold entry or graded judgment and the atoms it became.
func goldLine(g report.GoldDetail) app.UI {
	return app.Li().Body(
		app.If(g.Judgment != nil, func() app.UI { return app.Span().Class("grade").Text(fmt.Sprintf("g=%d ", *g.Judgment)) }),
		app.Span().Text(g.Label),
		app.If(len(g.Atoms) > 0, func() app.UI {
			return app.Span().Class("atoms").Text(" → " + joinMax(g.Atoms, 8))
		}),
		app.If(g.Note != "", func() app.UI { return app.Span().Class("badge flag").Text(g.Note) }),
	)
}

func joinMax(s []string, n int) string {
	out := ""
	for i, a := range s {
		if i == n {
			return out + fmt.Sprintf(", … (%d more)", len(s)-n)
		}
		if i > 0 {
			out += ", "
		}
		out += a
	}
	return out
}

func renderRunItem(r report.RunItem) app.UI {
	cls := "col run"
	verdict := ""
	switch {
	case r.Missing:
		cls, verdict = cls+" missing", "missing"
	case r.Correct != nil && *r.Correct:
		cls, verdict = cls+" correct", "correct"
	case r.Correct != nil:
		cls, verdict = cls+" wrong", "incorrect"
	}
	keys := make([]string, 0, len(r.Scores))
	for k := range r.Scores.Names() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// the key metrics first; the rest (often tens of @k variants) folded
	var head, rest []string
	for _, k := range keyMetrics {
		if r.Scores.Has(k) {
			head = append(head, k)
		}
	}
	for _, k := range keys {
		if !slices.Contains(head, k) {
			rest = append(rest, k)
		}
	}
	return app.Div().Class(cls).Attr("data-run", r.Run).Body(
		app.H5().Body(app.Text(r.Run), app.If(verdict != "", func() app.UI {
			return app.Span().Class("badge " + verdict).Text(verdict)
		})),
		app.If(r.Response != "", func() app.UI {
			return app.P().Body(app.Span().Class("muted").Text("answer: "), app.Span().Class("resp").Text(r.Response))
		}),
		app.If(len(r.Flags) > 0, func() app.UI {
			return app.P().Class("item-flags").Body(app.Span().Class("muted").Text("flags: "),
				app.Range(r.Flags).Slice(func(i int) app.UI { return app.Span().Class("flag").Text(r.Flags[i]) }))
		}),
		app.If(len(r.Errors) > 0, func() app.UI {
			return app.P().Class("item-flags").Attr("data-test", "item-errors").Body(app.Span().Class("muted").Text("error codes (seed 003 §9): "),
				app.Range(r.Errors).Slice(func(i int) app.UI { return app.Span().Class("flag").Text(r.Errors[i]) }))
		}),
		app.If(len(r.Retrieved) > 0, func() app.UI {
			return app.Ol().Class("retrieved").Body(app.Range(r.Retrieved).Slice(func(i int) app.UI {
				m := r.Retrieved[i]
				c := "ret"
				mark := "unjudged"
				if m.Grade != nil {
					mark = "rel " + strconv.Itoa(*m.Grade)
					if *m.Grade > 0 {
						c += " rel"
					} else {
						c += " nonrel"
					}
				} else {
					c += " unjudged"
				}
				if m.Gold {
					c += " gold-hit"
				}
				return app.Li().Class(c).Attr("value", strconv.Itoa(m.Rank)).Body(
					app.Span().Class("doc").Text(m.ID),
					app.Span().Class("mark").Text(" "+mark),
					app.If(m.Gold, func() app.UI { return app.Span().Class("badge pass").Text("gold") }),
					app.If(m.Flag != "", func() app.UI { return app.Span().Class("badge flag").Text(m.Flag) }),
				)
			}))
		}),
		app.If(len(head) > 0, func() app.UI { return scoreList(head, r.Scores) }),
		app.If(len(rest) > 0, func() app.UI {
			label := fmt.Sprintf("all %d per-item metrics", len(keys))
			if len(head) == 0 {
				label = fmt.Sprintf("%d per-item metrics", len(keys))
			}
			return app.Details().Class("more-metrics").Body(app.Summary().Text(label), scoreList(rest, r.Scores))
		}),
	)
}

// scoreList is a list of per-item metric values.
func scoreList(keys []string, scores report.Values) app.UI {
	return app.Dl().Class("scores").Body(app.Range(keys).Slice(func(i int) app.UI {
		return app.Div().Class("kv").Attr("data-test", "item-metric").Attr("data-metric", keys[i]).Body(
			app.Dt().Text(keys[i]),
			app.Dd().Text(strconv.FormatFloat(scores.At(keys[i]), 'f', 4, 64)),
		)
	}))
}

// ---- export ----

func (p *Page) renderExport() app.UI {
	type rep struct {
		id, label string
		ok        bool
	}
	reps := []rep{
		{"score", "Scores", p.has("score")},
		{"compare", compareLabel(p.comparedRuns()), p.has("compare")},
		{"audit", "Audit", p.has("audit")},
		{"overview", "Overview", p.has("overview")},
	}
	return app.Div().Class("export").Body(
		app.H2().Text("Export"),
		app.P().Text("Files are generated here, in this browser, by the same renderers as the eval752 command line (`eval752 score --json` prints the same JSON), and saved through a local Blob URL."),
		app.Table().Class("grid narrow").Body(
			app.TBody().Body(
				app.Range(reps).Slice(func(i int) app.UI {
					r := reps[i]
					if !r.ok {
						return app.Tr().Body(app.Th().Scope("row").Text(r.label), app.Td().ColSpan(3).Class("muted").Text("not available for these inputs"))
					}
					return app.Tr().Body(
						app.Th().Scope("row").Text(r.label),
						app.Td().Body(p.exportButton("export-"+r.id+"-json", "JSON", r.id, "json")),
						app.Td().Body(p.exportButton("export-"+r.id+"-md", "Markdown", r.id, "md")),
						app.Td().Body(p.exportButton("export-"+r.id+"-csv", "CSV", r.id, "csv")),
					)
				}),
				app.Tr().Body(
					app.Th().Scope("row").Text("Per item"),
					app.If(p.meta.Items > 0, func() app.UI {
						return app.Td().ColSpan(3).Body(p.exportButton("export-items-csv", "CSV: one row per item and run (answer, verdict, flags, per-item metrics)", "items", "csv"))
					}).Else(func() app.UI {
						return app.Td().ColSpan(3).Class("muted").Text("not available for these inputs")
					}),
				),
				app.Tr().Body(
					app.Th().Scope("row").Text("Findings"),
					app.Td().Body(p.exportButton("export-findings-json", "JSON", "findings", "json")),
					app.Td(),
					app.Td().Body(p.exportButton("export-findings-csv", "CSV", "findings", "csv")),
				),
				app.Tr().Body(
					app.Th().Scope("row").Text("Everything"),
					app.Td().Body(p.exportButton("export-result-json", "JSON", "result", "json")),
					app.Td(), app.Td(),
				),
				app.Tr().Body(
					app.Th().Scope("row").Text("Results bundle"),
					app.Td().ColSpan(3).Body(p.exportButton("export-results-zip", "ZIP: every report above in every format, with a manifest", "results", "zip")),
				),
			),
		),
		app.P().Class("muted").Text("File names start with the dataset's name (the bundle's meta.json name, else the first file's). CSV numbers have 6 significant digits (whole numbers exact); JSON keeps full precision. "+
			"The results bundle (…-results.zip) holds README.md, manifest.json (tool, inputs with sha256, counts, runs, the compared pair, each file with its sha256), the findings, scores, comparison and audit as JSON, Markdown and CSV: the same bytes as `eval752 results OUT FILES…` with the same runs compared."),
	)
}

// compareLabel names the comparison the export holds.
func compareLabel(c wire.CompareRequest) string {
	if c.A == "" || c.B == "" {
		return "Comparison"
	}
	return "Comparison (B " + c.B + " − A " + c.A + ")"
}
