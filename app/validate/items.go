package validate

import (
	"eval752/app/answer"
	"strings"

	"eval752/app/finding"
	"eval752/app/jsonl"
	"eval752/app/model"
)

// Gate 1, per-type rules of eval752 items (seed 004 支持的题目类型).
//
// judge_pairwise is the one type seed 004 leaves undefined ("Arena 模式的双回答
// 比较"). eval752 defines its shape: choices holds exactly the two responses
// being compared (A = choices[0], B = choices[1]), answer is the reference
// verdict "A", "B" or "tie", and criteria is the non-empty rubric the judge
// applies.

var (
	ruleItemText = register(finding.Rule{
		Code:        "item.text-empty",
		Severity:    finding.Error,
		Description: "inputs.text, the prompt sent to the model, is not empty.",
		Source:      "seed 004 字段说明 (inputs.text 必填)",
		Hint:        "Put the prompt in inputs.text.",
		Family:      "item",
	})
	ruleItemChoices = register(finding.Rule{
		Code:        "item.choices",
		Severity:    finding.Error,
		Description: "mcq_single and mcq_multi items have at least two non-empty choices.",
		Source:      "seed 004 字段说明 (choices 选择题类型必填)",
		Hint:        "List the options in choices, at least two, none blank.",
		Family:      "item",
	})
	ruleItemChoiceDup = register(finding.Rule{
		Code:        "item.choice-duplicate",
		Severity:    finding.Error,
		Description: "The choices of an item are distinct.",
		Source:      "seed 004 支持的题目类型 (answer 是匹配某个选项的字符串)",
		Hint:        "Remove or reword the repeated option: an answer equal to it would match two choices.",
		Family:      "item",
	})
	ruleItemAnswerType = register(finding.Rule{
		Code:        "item.answer-type",
		Severity:    finding.Error,
		Description: "answer is a string for mcq_single, freeform, code and judge_pairwise, and an array of strings for mcq_multi.",
		Source:      "seed 004 字段说明 (单选题为字符串，多选题为数组)",
		Hint:        "Write mcq_multi answers as [\"…\", \"…\"] and every other answer as one string.",
		Family:      "item",
	})
	ruleItemAnswerChoice = register(finding.Rule{
		Code:        "item.answer-not-choice",
		Severity:    finding.Error,
		Description: "An mcq answer (each element, for mcq_multi) equals one of the item's choices.",
		Source:      "seed 004 支持的题目类型 (mcq_single: answer 是匹配某个选项的字符串)",
		Hint:        "Copy the correct option's text into answer exactly.",
		Family:      "item",
	})
	ruleItemMultiEmpty = register(finding.Rule{
		Code:        "item.answer-empty",
		Severity:    finding.Error,
		Description: "mcq_multi answers are non-empty arrays; freeform and code items carry a non-empty reference answer.",
		Source:      "seed 004 字段说明 (answer 必填)",
		Hint:        "Give the reference answer; an item without one cannot be scored.",
		Family:      "item",
	})
	ruleItemAnswerDup = register(finding.Rule{
		Code:        "item.answer-duplicate",
		Severity:    finding.Error,
		Description: "An mcq_multi answer lists each choice at most once.",
		Source:      "seed 004 支持的题目类型 (mcq_multi 多个正确答案)",
		Hint:        "Remove the repeated element: the answer is a set of choices.",
		Family:      "item",
	})
	ruleJudgeChoices = register(finding.Rule{
		Code:        "item.judge-choices",
		Severity:    finding.Error,
		Description: "A judge_pairwise item's choices are exactly the two (distinct, non-empty) responses being compared.",
		Source:      "seed 004 支持的题目类型 (judge_pairwise 双回答比较; shape defined by eval752)",
		Hint:        "Put response A in choices[0] and response B in choices[1].",
		Family:      "item",
	})
	ruleJudgeAnswer = register(finding.Rule{
		Code:        "item.judge-answer",
		Severity:    finding.Error,
		Description: "A judge_pairwise item's answer is the reference verdict \"A\", \"B\" or \"tie\" (spellings the scorer reads as those, such as \"Model A\" or \"平局\", are accepted).",
		Source:      "seed 004 支持的题目类型 (judge_pairwise; shape defined by eval752)",
		Hint:        "Set answer to \"A\" (choices[0] is better), \"B\" (choices[1]) or \"tie\".",
		Family:      "item",
	})
	ruleJudgeCriteria = register(finding.Rule{
		Code:        "item.judge-criteria",
		Severity:    finding.Warning, // seed 004 marks criteria optional (必填: 否)
		Description: "A judge_pairwise item carries a non-empty judging rubric in criteria.",
		Source:      "seed 004 字段说明 (criteria: LLM 裁判评分的评判标准)",
		Hint:        "Write the rubric the judge must apply in criteria.",
		Family:      "item",
	})
)

func (c *checker) checkItems() {
	for _, r := range c.ds.Items {
		if !r.Typed {
			continue
		}
		it := r.V
		at := func(rule *finding.Rule, p string, format string, args ...any) {
			c.add(rule.At(c.ds.Path(r.Loc), int(r.Line), p, format, args...))
		}
		if _, present := rawField(r.Raw, "inputs", "text"); present && strings.TrimSpace(it.Inputs.Text) == "" {
			// a missing inputs.text is schema.required's finding; one defect, one finding
			at(ruleItemText, "/inputs/text", "inputs.text is empty: the model would get no prompt")
		}
		switch it.Type {
		case model.TypeMCQSingle, model.TypeMCQMulti:
			choices := c.checkChoices(c.ds.Path(r.Loc), int(r.Line), it)
			if it.Type == model.TypeMCQSingle {
				ans, ok := rawString(it.Answer)
				if !ok {
					at(ruleItemAnswerType, "/answer", "mcq_single answer must be a string, got %s", rawKind(it.Answer))
					continue
				}
				if len(choices) > 0 && !choices[ans] {
					if k := letterIndex(ans, len(it.Choices)); k >= 0 {
						c.add(ruleItemAnswerChoice.At(c.ds.Path(r.Loc), int(r.Line), "/answer",
							"answer %q is not one of the choices: answer must be the choice text, not its letter (%q)", ans, it.Choices[k]).
							WithHint("Replace the letter with the option's text: \"answer\": " + quote(it.Choices[k]) + "."))
					} else {
						at(ruleItemAnswerChoice, "/answer", "answer %q is not one of the choices", ans)
					}
				}
				continue
			}
			ans, ok := rawStrings(it.Answer)
			if !ok {
				at(ruleItemAnswerType, "/answer", "mcq_multi answer must be an array of strings, got %s", rawKind(it.Answer))
				continue
			}
			if len(ans) == 0 {
				at(ruleItemMultiEmpty, "/answer", "mcq_multi answer is an empty array: at least one choice must be correct")
				continue
			}
			seen := map[string]int{}
			for i, a := range ans {
				if j, dup := seen[a]; dup {
					at(ruleItemAnswerDup, jsonl.Pointer("answer", i), "answer element %q repeats element %d", a, j)
					continue
				}
				seen[a] = i
				if len(choices) > 0 && !choices[a] {
					if k := letterIndex(a, len(it.Choices)); k >= 0 {
						at(ruleItemAnswerChoice, jsonl.Pointer("answer", i),
							"answer element %q is not one of the choices: answer must be the choice text, not its letter (%q)", a, it.Choices[k])
					} else {
						at(ruleItemAnswerChoice, jsonl.Pointer("answer", i), "answer element %q is not one of the choices", a)
					}
				}
			}
		case model.TypeFreeform, model.TypeCode:
			switch rawKind(it.Answer) {
			case "null":
				at(ruleItemMultiEmpty, "/answer", "%s item has no answer: a reference answer is required", it.Type)
			case "string":
				if rawEmpty(it.Answer) {
					at(ruleItemMultiEmpty, "/answer", "%s item has an empty answer: a reference answer is required", it.Type)
				}
			default:
				at(ruleItemAnswerType, "/answer", "%s answer must be a string, got %s", it.Type, rawKind(it.Answer))
			}
		case model.TypeJudgePairwise:
			c.checkJudge(c.ds.Path(r.Loc), int(r.Line), it)
		}
	}
}

// checkChoices reports a short, blank or repeated choice list and returns the
// set of choice texts.
func (c *checker) checkChoices(path string, line int, it model.Item) map[string]bool {
	if len(it.Choices) < 2 {
		c.add(ruleItemChoices.At(path, line, "/choices", "%s needs at least 2 choices, has %d", it.Type, len(it.Choices)))
	}
	set := map[string]bool{}
	first := map[string]int{}
	for i, ch := range it.Choices {
		if strings.TrimSpace(ch) == "" {
			c.add(ruleItemChoices.At(path, line, jsonl.Pointer("choices", i), "choice %d is blank", i))
			continue
		}
		if j, dup := first[ch]; dup {
			c.add(ruleItemChoiceDup.At(path, line, jsonl.Pointer("choices", i), "choice %q repeats choice %d", ch, j))
			continue
		}
		first[ch] = i
		set[ch] = true
	}
	return set
}

func (c *checker) checkJudge(path string, line int, it model.Item) {
	switch {
	case len(it.Choices) != 2:
		c.add(ruleJudgeChoices.At(path, line, "/choices",
			"judge_pairwise needs exactly 2 choices (the responses A and B), has %d", len(it.Choices)))
	case strings.TrimSpace(it.Choices[0]) == "" || strings.TrimSpace(it.Choices[1]) == "":
		i := 0
		if strings.TrimSpace(it.Choices[0]) != "" {
			i = 1
		}
		c.add(ruleJudgeChoices.At(path, line, jsonl.Pointer("choices", i), "judge_pairwise response %c is blank", 'A'+i))
	case it.Choices[0] == it.Choices[1]:
		c.add(ruleJudgeChoices.At(path, line, "/choices/1", "judge_pairwise responses A and B are identical: nothing to compare"))
	}
	if ans, ok := rawString(it.Answer); !ok {
		c.add(ruleJudgeAnswer.At(path, line, "/answer", "judge_pairwise answer must be \"A\", \"B\" or \"tie\", got %s", rawKind(it.Answer)))
	} else if answer.Verdict(ans) == "" {
		c.add(ruleJudgeAnswer.At(path, line, "/answer", "judge_pairwise answer must read as \"A\", \"B\" or \"tie\", got %q", ans))
	}
	if rawEmpty(it.CriteriaRaw()) {
		c.add(ruleJudgeCriteria.At(path, line, "/criteria", "judge_pairwise item has no criteria: the judge needs a rubric"))
	}
}

// letterIndex maps an option letter ("B", "b", "(B)", "B.") to its index
// when it is within n choices, else -1.
func letterIndex(s string, n int) int {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(t, "(")
	t = strings.TrimRight(t, ").:")
	if len(t) != 1 {
		return -1
	}
	ch := t[0]
	if ch >= 'a' && ch <= 'z' {
		ch -= 'a' - 'A'
	}
	if ch < 'A' || ch > 'Z' || int(ch-'A') >= n {
		return -1
	}
	return int(ch - 'A')
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	b.WriteString(strings.ReplaceAll(s, `"`, `\"`))
	b.WriteByte('"')
	return b.String()
}
