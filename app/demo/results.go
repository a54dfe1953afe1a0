package demo

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"eval752/app/model"
)

// results.jsonl: what the two runs answered. Correctness is drawn per (run,
// item) from each run's profile — bm25 answers 72 % of the eval752 items
// correctly, hybrid-rerank 82 % — so the runs agree on most items and
// disagree on some in both directions, which is what a paired test needs.

// freeformWrong is a plausible wrong answer per freeform item.
var freeformWrong = map[string]string{
	"ps-023": "16 A",
	"ps-024": "电暖器",
	"ps-025": "So the battery does not fall out when the toy is dropped.",
	"ps-026": "10 Wh",
	"ps-027": "Keep using the heater but do not leave it unattended.",
	"ps-028": "先打开排气扇通风",
	"ps-029": "Flammable",
	"ps-030": "27",
}

// buggyCode is what a failing run submitted for a code item.
const buggyCode = "def solution(*args):\n    raise NotImplementedError\n"

// missing are (run, item) pairs without a result line: the harness lost them.
var missing = map[string]bool{"bm25\x00ps-019": true, "hybrid-rerank\x00ps-033": true, "bm25\x00X07": true}

// lost says whether run's result for id is one of the missing lines.
func lost(run, id string) bool { return missing[run+"\x00"+id] }

// correctRate is run's chance of answering an item correctly: the bm25
// baseline's pBM25, the reranking run's pRerank.
func correctRate(run string, pBM25, pRerank float64) float64 {
	if run == "bm25" {
		return pBM25
	}
	return pRerank
}

func usageCost(run, id string) (*model.Usage, *float64, *float64) {
	in := 380 + int(900*unit(run, id, "in"))
	out := 20 + int(260*unit(run, id, "out"))
	lat := 600 + 2400*unit(run, id, "lat")
	if run != "bm25" {
		in += 420 // the reranked context is longer
		lat += 350
	}
	// made-up prices: $0.50 per million input tokens, $1.50 per million output tokens
	cost := math.Round((float64(in)*0.5+float64(out)*1.5)*100) / 1e8
	return &model.Usage{InputTokens: in, OutputTokens: out}, fp(cost), fp(math.Round(lat*10) / 10)
}

// answerAs decodes an item's answer as a T.
func answerAs[T any](it model.Item) (T, error) {
	var ans T
	if err := json.Unmarshal(it.Answer, &ans); err != nil {
		return ans, fmt.Errorf("demo: %s: %w", it.ID, err)
	}
	return ans, nil
}

func itemResults(items []model.Item) ([]model.Result, error) {
	var out []model.Result
	for _, run := range RunNames {
		p := correctRate(run, 0.72, 0.82)
		for _, it := range items {
			if lost(run, it.ID) {
				continue
			}
			ok := unit(run, it.ID, "correct") < p
			r := model.Result{Run: run, ItemID: it.ID}
			r.Usage, r.CostUSD, r.LatencyMS = usageCost(run, it.ID)
			switch it.Type {
			case model.TypeMCQSingle:
				ans, err := answerAs[string](it)
				if err != nil {
					return nil, err
				}
				resp := ans
				if !ok {
					for k, c := range it.Choices {
						if c != ans && k == 1+int(unit(run, it.ID, "pick")*float64(len(it.Choices)-1))%len(it.Choices) {
							resp = c
						}
					}
					if resp == ans { // the drawn index was the answer: take the next choice
						for _, c := range it.Choices {
							if c != ans {
								resp = c
								break
							}
						}
					}
				}
				r.Response = sp(resp)
			case model.TypeMCQMulti:
				ans, err := answerAs[[]string](it)
				if err != nil {
					return nil, err
				}
				resp := append([]string(nil), ans...)
				if !ok {
					if len(ans) > 1 && unit(run, it.ID, "partial") < 0.6 {
						resp = resp[:len(resp)-1] // missed one correct option
					} else {
						for _, c := range it.Choices { // picked a distractor too
							if !slices.Contains(ans, c) {
								resp = append(resp, c)
								break
							}
						}
					}
				}
				r.Responses = resp
			case model.TypeFreeform:
				ans, err := answerAs[string](it)
				if err != nil {
					return nil, err
				}
				if !ok {
					ans = freeformWrong[it.ID]
				} else if al, _ := it.Meta["aliases"].([]any); len(al) > 0 && unit(run, it.ID, "alias") < 0.4 {
					ans, _ = al[0].(string)
				}
				r.Response = sp(ans)
			case model.TypeCode:
				ans, err := answerAs[string](it)
				if err != nil {
					return nil, err
				}
				if !ok {
					ans = buggyCode
				}
				r.Response = sp(ans)
				r.Passed = &ok
			case model.TypeJudgePairwise:
				ans, err := answerAs[string](it)
				if err != nil {
					return nil, err
				}
				v := ans
				if !ok {
					v = map[string]string{"A": "tie", "B": "A", "tie": "B"}[ans]
				}
				r.Verdict = v
			}
			// the one refusal: the second run declines the button-battery question
			if run == "hybrid-rerank" && it.ID == "ps-036" {
				r.Verdict = ""
				r.Response = sp("I can't give medical advice; please contact a doctor.")
				t := true
				r.Refused = &t
			}
			// the one harness failure
			if run == "bm25" && it.ID == "ps-040" {
				r = model.Result{Run: run, ItemID: it.ID, Error: "provider timeout after 60 s", LatencyMS: fp(60000)}
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// v2Results: bm25 answers 65 % of the answerable v2 questions with the
// verbatim clause text, hybrid-rerank 78 %; a wrong cross answer quotes only
// its first clause (a half recall, seed 002 跨段组合); refuse questions are
// refused with the seed's phrase except for a few confident inventions.
func v2Results(qs []model.V2Question) []model.Result {
	var out []model.Result
	for _, run := range RunNames {
		p := correctRate(run, 0.65, 0.78)
		for _, q := range qs {
			if lost(run, q.ID) {
				continue
			}
			r := model.Result{Run: run, ItemID: q.ID}
			r.Usage, r.CostUSD, r.LatencyMS = usageCost(run, q.ID)
			ok := unit(run, q.ID, "correct") < p
			switch {
			case q.Category == model.CategoryRefuse:
				if unit(run, q.ID, "refuse") < 0.8 || run == "hybrid-rerank" && q.ID == "R04" {
					r.Response = sp(RefusalPhrase)
					t := true
					r.Refused = &t
				} else {
					r.Response = sp("根据相关规定，应当按照第五条执行。")
				}
			case ok:
				r.Response = sp(*q.Answer)
			case q.Category == model.CategoryCross:
				r.Response = sp(strings.SplitN(*q.Answer, "；", 2)[0])
			case unit(run, q.ID, "overrefuse") < 0.3:
				r.Response = sp(RefusalPhrase)
				t := true
				r.Refused = &t
			default:
				r.Response = sp("应当按照有关规定及时处理，并报告主管部门。")
			}
			out = append(out, r)
		}
	}
	return out
}

// b2Results: ranked atoms for every annotation, plus a short answer.
func b2Results(anns []model.B2, atoms []model.Atom) []model.Result {
	var out []model.Result
	for _, run := range RunNames {
		for _, b := range anns {
			r := model.Result{Run: run, ItemID: b.QueryID, Retrieved: simulateB2Run(run, b, atoms)}
			// compile latency of seed 000 §4 (question → ready), in ms
			lat := 180 + 900*unit(run, b.QueryID, "compile")
			if run != "bm25" {
				lat += 240
			}
			r.LatencyMS = fp(math.Round(lat*10) / 10)
			if b.Unanswerable {
				if unit(run, b.QueryID, "abstain") < 0.85 {
					t := true
					r.Refused = &t
					r.Response = sp(RefusalPhrase)
				} else {
					r.Response = sp("unknown")
				}
			} else {
				first := ""
				if len(r.Retrieved) > 0 {
					first = r.Retrieved[0].ID
				}
				hit := false
				for _, g := range b.Gold {
					for _, a := range atoms {
						if a.AtomID == first && overlaps(a, g) {
							hit = true
						}
					}
				}
				var list []string
				var text string
				switch {
				case hit && json.Unmarshal(b.Answer, &list) == nil:
					r.Responses = list
				case hit && json.Unmarshal(b.Answer, &text) == nil:
					r.Response = sp(text)
				case hit:
					r.Response = sp(string(b.Answer)) // a number, as its JSON text
				default:
					r.Response = sp("not found in the top result")
				}
			}
			out = append(out, r)
		}
	}
	return out
}
