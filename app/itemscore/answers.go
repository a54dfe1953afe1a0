package itemscore

import (
	"encoding/json"
	"eval752/app/report"
	"regexp"
	"strings"

	"eval752/app/answer"
	"eval752/app/model"
)

// responseText is the text of a result shown to people and matched against
// references: its response, else its responses joined, else its verdict.
func responseText(o *output) string {
	switch {
	case o.response != nil:
		return *o.response
	case len(o.x().responses) > 0:
		return strings.Join(o.x().responses, ", ")
	}
	return o.x().verdict
}

// abstained reports whether a result refused: its refused flag when it has
// one, else whether its response is a refusal (a phrase of the list). A
// result with neither flag nor response did not refuse. Refusal metrics and
// false recall (an abstaining run returns no evidence) both use it.
func abstained(o *output, refusals *answer.Refusals) bool {
	if o == nil || o.response == nil && o.refused == nil {
		return false
	}
	return refusals.Refused(o.refused, responseText(o))
}

// scoreAnswer fills the answer, judge and refusal values of one unit for a
// run that answers (or, for refusal values only, gives refused flags). o is nil for a missing result: every value is then what
// an empty answer scores (0), and the refusal indicators read "did not
// refuse". It returns the response shown to people and the primary
// correctness (nil when the unit has none).
func scoreAnswer(u *unitSpec, o *output, run *runOut, refusals *answer.Refusals, v *report.Values) (string, *bool) {
	if o == nil {
		o = &output{}
	}
	resp := responseText(o)
	var correct *bool
	set := func(name string, ok bool) {
		v.Set(name, b01(ok))
	}
	if u.peer != nil {
		// a peer tool's item: the tool's own score and verdict
		if o.x().toolScore != nil {
			v.Set("tool.score", *o.x().toolScore)
		}
		c := o.x().passed != nil && *o.x().passed
		set("answer.correct", c)
		return resp, &c
	}
	if u.item == nil {
		// Refusal indicators: should_refuse is the positive class.
		should := !u.Answerable
		refused := abstained(o, refusals)
		set("refusal.detected", refused)
		set("refusal.tp", should && refused)
		set("refusal.fp", !should && refused)
		set("refusal.fn", should && !refused)
		if !u.Answerable {
			c := refused
			return resp, &c
		}
		if !run.answers {
			return resp, nil // abstention flags only: no answer to score
		}
	}
	switch {
	case u.item != nil:
		correct = scoreItemAnswer(u.item, o, resp, run, v)
	case u.b2 != nil:
		correct = scoreB2Answer(u.b2, resp, v)
	case u.v2 != nil:
		ref := ""
		if u.v2.Answer != nil {
			ref = *u.v2.Answer
		}
		c := textValues(resp, []string{ref}, v)
		correct = &c
	case u.rag != nil:
		q := u.rag
		ref := ""
		if q.ReferenceAnswer != nil {
			ref = *q.ReferenceAnswer
		}
		refs := append([]string{ref}, q.AnswerAliases...)
		c := textValues(resp, refs, v)
		if n, ok := numericRef(ref); ok || q.NumericTolerance != nil {
			tol := answer.Tolerance{}
			if q.NumericTolerance != nil {
				tol = answer.Tolerance{Absolute: q.NumericTolerance.Absolute, Relative: q.NumericTolerance.Relative, Unit: q.NumericTolerance.Unit}
			}
			if !ok {
				n, ok = answer.ParseNumber(ref)
			}
			if ok {
				num, _ := answer.Numeric(resp, n, tol)
				set("answer.numeric", num)
				c = num
			}
		}
		correct = &c
	}
	if correct != nil {
		set("answer.correct", *correct)
	}
	return resp, correct
}

// scoreItemAnswer scores an eval752 item by type (seed 004).
func scoreItemAnswer(it *model.Item, o *output, resp string, run *runOut, v *report.Values) *bool {
	var c bool
	switch it.Type {
	case model.TypeMCQSingle:
		r := resp
		if o.response == nil && len(o.x().responses) > 0 {
			r = o.x().responses[0]
		}
		c = answer.MCQSingle(r, it.Choices, rawString(it.Answer))
	case model.TypeMCQMulti:
		chosen := o.x().responses
		if chosen == nil && o.response != nil {
			chosen = answer.SplitChoices(*o.response)
		}
		exact, jac := answer.MCQMulti(chosen, it.Choices, rawStrings(it.Answer))
		v.Set("answer.mcq_partial", jac)
		c = exact
	case model.TypeCode:
		if !run.passes {
			return nil
		}
		c = o.x().passed != nil && *o.x().passed
		v.Set("code.passed", b01(c))
	case model.TypeJudgePairwise:
		ref := answer.Verdict(rawString(it.Answer))
		got := answer.Verdict(o.x().verdict)
		if got == "" && o.response != nil {
			got = answer.Verdict(*o.response)
		}
		v.Set("judge.a_win", b01(got == "A"))
		v.Set("judge.b_win", b01(got == "B"))
		v.Set("judge.tie", b01(got == "tie"))
		c = got != "" && got == ref
		v.Set("judge.agree", b01(c))
	default: // freeform and unknown types: text comparison
		ref := rawString(it.Answer)
		refs := append([]string{ref}, aliases(it.Meta)...)
		c = textValues(resp, refs, v)
		if n, ok := numericRef(ref); ok {
			num, _ := answer.Numeric(resp, n, answer.Tolerance{})
			v.Set("answer.numeric", b01(num))
			c = num
		}
	}
	return &c
}

// scoreB2Answer scores a b-2 answer: a number (answer_format int / float, or
// a JSON number) numerically, a list by requiring every element in the
// response, a string as text.
func scoreB2Answer(b *model.B2, resp string, v *report.Values) *bool {
	var raw any
	_ = json.Unmarshal(b.Answer, &raw)
	var c bool
	switch x := raw.(type) {
	case float64:
		ref := strings.TrimSpace(string(b.Answer))
		c = textValues(resp, []string{ref}, v)
		num, _ := answer.Numeric(resp, answer.Number{Value: x}, answer.Tolerance{})
		v.Set("answer.numeric", b01(num))
		c = num
	case []any:
		all := len(x) > 0
		cov := 0.0
		for _, e := range x {
			s := anyText(e)
			if !answer.Substring(resp, []string{s}) {
				all = false
			}
			cov += answer.BigramCoverage(resp, s)
		}
		if len(x) > 0 {
			cov /= float64(len(x))
		}
		v.Set("answer.substring", b01(all))
		v.Set("answer.bigram", cov)
		c = all
	default:
		ref := anyText(raw)
		c = textValues(resp, []string{ref}, v)
		if n, ok := numericRef(ref); ok && (b.AnswerFormat == "int" || b.AnswerFormat == "float") {
			num, _ := answer.Numeric(resp, n, answer.Tolerance{})
			v.Set("answer.numeric", b01(num))
			c = num
		}
	}
	return &c
}

// textValues sets answer.exact / alias / substring / bigram against refs
// (refs[0] is the reference, the rest its aliases) and returns the text
// verdict: an exact or alias match, or the reference inside the response.
func textValues(resp string, refs []string, v *report.Values) bool {
	var clean []string
	for _, r := range refs {
		if answer.Normalize(r) != "" {
			clean = append(clean, r)
		}
	}
	exact := len(refs) > 0 && answer.Exact(resp, refs[0])
	alias := answer.Alias(resp, clean)
	sub := answer.Substring(resp, clean)
	v.Set("answer.exact", b01(exact))
	if len(clean) > 1 {
		v.Set("answer.alias", b01(alias))
	}
	v.Set("answer.substring", b01(sub))
	v.Set("answer.bigram", answer.BestBigramCoverage(resp, clean))
	return alias || sub
}

var numericRE = regexp.MustCompile(`^[-+−]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s*(\S{0,4})$`)

// numericRef reads a reference that is a number with an optional unit
// ("0.86%", "42", "1,234 m", "62万元"); other text is not numeric.
func numericRef(ref string) (answer.Number, bool) {
	s := strings.TrimSpace(ref)
	m := numericRE.FindStringSubmatch(s)
	if m == nil {
		return answer.Number{}, false
	}
	ns := answer.ParseNumbers(s)
	if len(ns) != 1 {
		return answer.Number{}, false
	}
	if tail := m[1]; tail != "" && ns[0].Unit == "" && tail != "万" && tail != "亿" {
		return answer.Number{}, false
	}
	return ns[0], true
}

func b01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func rawString(raw model.Raw) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return rawText(raw)
}

func rawStrings(raw model.Raw) []string {
	var ss []string
	if json.Unmarshal(raw, &ss) == nil {
		return ss
	}
	if s := rawString(raw); s != "" {
		return []string{s}
	}
	return nil
}

func anyText(x any) string {
	switch v := x.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	b, _ := json.Marshal(x)
	return string(b)
}

// aliases reads meta.aliases (a string or a list of strings).
func aliases(meta map[string]any) []string {
	switch v := meta["aliases"].(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case []string:
		return v
	}
	return nil
}
