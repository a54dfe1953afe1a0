package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/model"
	"eval752/app/report"
)

// The refusal audit's review queue in the Audit view (docs/audit.md "Review
// queue"): one row per queued refuse question with a button per verdict.
// The page only records what the reviewer clicks, as eval752.verdict lines
// (model.Verdict), and exports them; `eval752 audit` (or this page, when the
// exported file is loaded with the set) reads them back. The queue's order,
// scores and passages are the audit report's own table, not computed here.

// reviewState is the reviewer's work on this page.
type reviewState struct {
	reviewer string
	order    []string // qids in the order they were first decided
	verdicts map[string]model.Verdict
}

var verdictChoices = []string{model.VerdictAnswerable, model.VerdictRefuseOK, model.VerdictUnsure}

// queueTable finds the review queue in the audit report.
func queueTable(rep *report.Report) *report.Table {
	if rep == nil {
		return nil
	}
	for i := range rep.Sections {
		for j := range rep.Sections[i].Tables {
			if t := &rep.Sections[i].Tables[j]; t.ID == "refusal-queue" {
				return t
			}
		}
	}
	return nil
}

// column returns the index of key in t's columns, -1 if absent.
func column(t *report.Table, key string) int {
	for i, c := range t.Columns {
		if c.Key == key {
			return i
		}
	}
	return -1
}

func cellText(row []report.Cell, i int) string {
	if i < 0 || i >= len(row) {
		return ""
	}
	return row[i].Text
}

// queuePassageID is the passage id of a queue cell "id (a · b · c · d)".
func queuePassageID(cell string) string {
	if i := strings.LastIndex(cell, " ("); i > 0 {
		return cell[:i]
	}
	if cell == "–" {
		return ""
	}
	return cell
}

func (p *Page) renderReviewQueue(rep *report.Report) app.UI {
	t := queueTable(rep)
	if t == nil || len(t.Rows) == 0 {
		return nil
	}
	cID, cText, cPass, cReview := column(t, "id"), column(t, "text"), column(t, "passage_1"), column(t, "review")
	n := len(p.review.verdicts)
	return app.Div().Class("review-queue").Attr("data-test", "review-queue").Body(
		app.H3().Text("Review the refuse questions"),
		app.P().Class("muted").Text("Read each question's passages in the review queue below (best first), then record a verdict. "+
			"Export the verdicts and load the file with the set: `eval752 audit` and this page then show each reviewed question with its verdict instead of flagging it again."),
		app.Div().Class("actions").Body(
			app.Label().For("review-reviewer").Text("reviewer "),
			app.Input().Type("text").ID("review-reviewer").Attr("data-test", "verdict-reviewer").
				Placeholder("your name").Value(p.review.reviewer).OnInput(p.onReviewer),
			app.Span().Text(" "),
			app.Button().Class("button").Attr("data-test", "export-verdicts").Disabled(n == 0).
				Text("Download "+plural(n, "verdict")+" (JSONL)").OnClick(p.onExportVerdicts),
		),
		app.Div().Class("scroll").Body(app.Table().Class("grid").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Text("#"), app.Th().Text("question"), app.Th().Text("question text"),
				app.Th().Text("audit says"), app.Th().Text("your verdict"),
			)),
			app.TBody().Body(app.Range(t.Rows).Slice(func(i int) app.UI {
				row := t.Rows[i]
				qid := cellText(row, cID)
				v, decided := p.review.verdicts[qid]
				state := "–"
				if decided {
					state = v.Verdict
				}
				return app.Tr().Attr("data-test", "queue-row").Attr("data-qid", qid).Body(
					app.Td().Class("num").Text(i+1),
					app.Td().Text(qid),
					app.Td().Text(cellText(row, cText)),
					app.Td().Text(cellText(row, cReview)),
					app.Td().Body(
						app.Range(verdictChoices).Slice(func(k int) app.UI {
							cls := "button small"
							if decided && v.Verdict == verdictChoices[k] {
								cls += " primary"
							}
							return app.Button().Class(cls).Attr("data-test", "verdict-"+verdictChoices[k]).
								Attr("data-qid", qid).Attr("data-verdict", verdictChoices[k]).
								Attr("data-passage", queuePassageID(cellText(row, cPass))).
								Text(verdictChoices[k]).OnClick(p.onVerdict)
						}),
						app.Span().Class("muted").Attr("data-test", "verdict-state").Text(" "+state),
					),
				)
			})),
		)),
	)
}

func (p *Page) onReviewer(ctx app.Context, e app.Event) {
	p.review.reviewer = ctx.JSSrc().Get("value").String()
}

// onVerdict records the clicked verdict for the row's question (a later
// click replaces it).
func (p *Page) onVerdict(ctx app.Context, e app.Event) {
	qid, verdict := dataOf(ctx, "qid"), dataOf(ctx, "verdict")
	if qid == "" || verdict == "" {
		return
	}
	if p.review.verdicts == nil {
		p.review.verdicts = map[string]model.Verdict{}
	}
	if _, ok := p.review.verdicts[qid]; !ok {
		p.review.order = append(p.review.order, qid)
	}
	reviewer := strings.TrimSpace(p.review.reviewer)
	if reviewer == "" {
		reviewer = "anonymous"
	}
	p.review.verdicts[qid] = model.Verdict{QID: qid, Verdict: verdict, Reviewer: reviewer,
		At: time.Now().UTC().Format(time.RFC3339), Passage: dataOf(ctx, "passage")}
}

// verdictLines is the export: one eval752.verdict line per decided
// question, in the order they were first decided.
func (r reviewState) verdictLines() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, q := range r.order {
		enc.Encode(r.verdicts[q]) // a struct of strings always encodes
	}
	return b.Bytes()
}

func (p *Page) onExportVerdicts(ctx app.Context, e app.Event) {
	data := p.review.verdictLines()
	if len(data) == 0 {
		return
	}
	u8 := app.Window().Get("Uint8Array").New(len(data))
	app.CopyBytesToJS(u8, data)
	blob := app.Window().Get("Blob").New([]any{u8}, map[string]any{"type": "application/x-ndjson"})
	p.download(blob, "eval752-verdicts.jsonl")
}
