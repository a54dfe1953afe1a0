package demo

import (
	"fmt"
	"strings"

	"eval752/app/model"
)

// The seed-002 style test set. Answers are never typed by hand: each question
// names the clause sentences it quotes and v2Questions copies them verbatim
// from corpus/clauses.jsonl (seed 002: "逐字抄条款", several sentences joined
// with 「；」), so the verbatim rule holds by construction.

// v2Cite is one provenance plus the sentence (0-based, split at 。) quoted
// from it. Body picks one of the bodies when a clause number repeats in a
// compiled guide (0 = the first).
type v2Cite struct {
	Doc, Clause string
	Body, Sent  int
}

type v2Src struct {
	ID, Category, Question, Split, Origin string
	Cites                                 []v2Cite
}

var v2Source = []v2Src{
	// direct
	{"D01", "direct", "生产者对其生产的消费品的安全承担什么责任？", "dev", "v1", []v2Cite{{"reg-cps", "第二条", 0, 0}}},
	{"D02", "direct", "召回办法所称的“缺陷”是指什么？", "dev", "v1", []v2Cite{{"reg-recall", "第一条", 0, 0}}},
	{"D03", "direct", "经营者的主要负责人在本单位产品安全工作中处于什么地位？", "dev", "v2", []v2Cite{{"guide-city", "第一条", 0, 0}}},
	{"D04", "direct", "新产品安全评估记录至少要保存多长时间？", "dev", "v2", []v2Cite{{"reg-cps", "第六条", 0, 0}}},
	{"D05", "direct", "召回计划应当包括哪些内容？", "dev", "v2", []v2Cite{{"reg-recall", "第四条", 0, 0}}},
	{"D06", "direct", "电商平台经营者应当在什么位置公示召回信息？", "test", "v2", []v2Cite{{"guide-city", "第五条", 0, 0}}},
	{"D07", "direct", "生产者应当在产品或者包装上以中文标明哪些信息？", "test", "v2", []v2Cite{{"reg-cps", "第三条", 0, 0}}},
	{"D08", "direct", "全员产品安全责任制需要明确哪些内容？", "test", "v2", []v2Cite{{"guide-city", "第二条", 0, 0}}},
	{"D09", "direct", "消费者可以通过什么途径查询召回信息？", "test", "v2", []v2Cite{{"reg-recall", "第八条", 0, 0}}},
	{"D10", "direct", "经营者委托加工产品时，对受托方应当做什么？", "test", "v2", []v2Cite{{"guide-city", "第七条", 0, 0}}},
	// conditional
	{"C01", "conditional", "某灯具厂年销售额 8000 万元，应当如何配备产品安全管理人员？", "dev", "v1", []v2Cite{{"reg-cps", "第五条", 0, 0}}},
	{"C02", "conditional", "一家年销售额 1200 万元的小家电厂，产品安全管理人员应当如何配备？", "dev", "v1", []v2Cite{{"reg-cps", "第五条", 0, 1}}},
	{"C03", "conditional", "某品牌电暖器的缺陷可能导致使用者死亡，应当适用哪一级召回？", "dev", "v2", []v2Cite{{"reg-recall", "第五条", 0, 1}}},
	{"C04", "conditional", "某玩具的缺陷只可能造成轻微擦伤，应当适用哪一级召回？", "dev", "v2", []v2Cite{{"reg-recall", "第五条", 0, 3}}},
	{"C05", "conditional", "某厂未按时报告一起造成人身伤害的产品安全事故，但未造成严重后果，应当如何处罚？", "dev", "v2", []v2Cite{{"reg-cps", "第十条", 0, 0}}},
	{"C06", "conditional", "某厂迟报产品安全事故并造成了严重后果，罚款幅度是多少？", "test", "v2", []v2Cite{{"reg-cps", "第十条", 0, 1}}},
	{"C07", "conditional", "某电商平台周一上午 9 点收到召回通知，最晚什么时候必须下架缺陷商品？", "test", "v2", []v2Cite{{"guide-city", "第五条", 0, 0}}},
	{"C08", "conditional", "一家网店本季度入库 200 批高风险产品，至少应当抽检多少批？", "test", "v2", []v2Cite{{"guide-city", "第八条", 0, 0}}},
	{"C09", "conditional", "一名新入职的质量检验员，上岗前至少要接受多少学时的培训？", "test", "v2", []v2Cite{{"guide-city", "第三条", 0, 1}}},
	{"C10", "conditional", "某生产者在周五获知其产品可能存在缺陷，应当在什么期限内报告？", "test", "v2", []v2Cite{{"reg-recall", "第二条", 0, 0}}},
	// cross (joint)
	{"X01", "cross", "生产者和销售者分别承担什么产品安全义务？", "dev", "v1", []v2Cite{{"reg-cps", "第二条", 0, 0}, {"reg-cps", "第九条", 0, 0}}},
	{"X02", "cross", "生产者确认缺陷后应当做什么？召回信息应当在何时发布？", "dev", "v1", []v2Cite{{"reg-recall", "第三条", 0, 0}, {"reg-recall", "第四条", 0, 1}}},
	{"X03", "cross", "儿童用品检验不合格的批次能否出厂？违规出厂会受到什么处罚？", "dev", "v2", []v2Cite{{"reg-cps", "第七条", 0, 1}, {"reg-cps", "第十一条", 0, 0}}},
	{"X04", "cross", "含锂电池的产品在标识上有什么额外要求？如果发生人身伤害事故，生产者应当在多长时间内报告？", "dev", "v2", []v2Cite{{"reg-cps", "第八条", 0, 1}, {"reg-cps", "第四条", 0, 1}}},
	{"X05", "cross", "经营者在产品安全培训和消费者投诉处理上分别有什么要求？", "dev", "v2", []v2Cite{{"guide-city", "第三条", 0, 0}, {"guide-city", "第六条", 0, 0}}},
	{"X06", "cross", "召回期间生产者要多久提交一次阶段性总结？经营者的追溯记录要保存多久？", "test", "v2", []v2Cite{{"reg-recall", "第六条", 0, 0}, {"guide-city", "第五条", 1, 0}}},
	{"X07", "cross", "主要负责人承担什么责任？全员责任制又要明确什么？", "test", "v2", []v2Cite{{"guide-city", "第一条", 0, 0}, {"guide-city", "第二条", 0, 0}}},
	{"X08", "cross", "生产者确认缺陷后必须做什么？不按规定召回会受到什么处罚？", "test", "v2", []v2Cite{{"reg-recall", "第三条", 0, 0}, {"reg-recall", "第七条", 0, 0}}},
	{"X09", "cross", "销售者发现在售产品存在安全隐患时应当怎么做？电商平台收到召回通知后又应当怎么做？", "test", "v2", []v2Cite{{"reg-cps", "第九条", 0, 0}, {"guide-city", "第五条", 0, 0}}},
	{"X10", "cross", "生产者的事故报告制度和经营者的投诉处理制度分别有什么要求？", "test", "v2", []v2Cite{{"reg-cps", "第四条", 0, 0}, {"guide-city", "第六条", 0, 0}}},
	// refuse: nothing in the corpus answers them
	{"R01", "refuse", "演示公司 2025 年的营业收入是多少？", "dev", "v1", nil},
	{"R02", "refuse", "本厂产品安全管理人员的姓名和联系电话是什么？", "dev", "v1", nil},
	{"R03", "refuse", "条例对进口汽车轮胎的滚动阻力有什么要求？", "dev", "v2", nil},
	{"R04", "refuse", "食品添加剂的最大使用量是如何规定的？", "dev", "v2", nil},
	{"R05", "refuse", "本市去年一共发生了多少起电动自行车火灾？", "dev", "v2", nil},
	{"R06", "refuse", "召回办法对医疗器械的临床试验有什么规定？", "test", "v2", nil},
	{"R07", "refuse", "指南规定的质量检验员月薪标准是多少？", "test", "v2", nil},
	{"R08", "refuse", "玩具出口欧盟需要取得哪些认证？", "test", "v2", nil},
	{"R09", "refuse", "DK-17 电热水壶的建议零售价是多少？", "test", "v2", nil},
	{"R10", "refuse", "某品牌空气炸锅 2024 年一共召回了多少台？", "test", "v2", nil},
}

// RefusalPhrase is the refusal answer of seed 002 (拒答只看有没有说出它).
const RefusalPhrase = "资料中没有相关信息"

// sentences splits a clause body at 。 and drops the terminators.
func sentences(text string) []string {
	var out []string
	for _, s := range strings.Split(text, "。") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// v2Questions builds the questions from v2Source and the clause index.
func v2Questions(clauses []model.Clause) ([]model.V2Question, error) {
	bodies := map[string][]string{} // doc\x00clause → bodies in index order
	for _, c := range clauses {
		k := c.Doc + "\x00" + c.Clause
		bodies[k] = append(bodies[k], c.Text)
	}
	out := make([]model.V2Question, 0, len(v2Source))
	for _, s := range v2Source {
		q := model.V2Question{ID: s.ID, Category: s.Category, Question: s.Question, Split: s.Split, Origin: s.Origin,
			Provenance: []model.V2Provenance{}, Joint: s.Category == model.CategoryCross}
		var parts []string
		for _, c := range s.Cites {
			bs := bodies[c.Doc+"\x00"+c.Clause]
			if c.Body >= len(bs) {
				return nil, fmt.Errorf("demo: %s cites %s %s body %d: no such clause", s.ID, c.Doc, c.Clause, c.Body)
			}
			ss := sentences(bs[c.Body])
			if c.Sent >= len(ss) {
				return nil, fmt.Errorf("demo: %s cites %s %s sentence %d: clause has %d", s.ID, c.Doc, c.Clause, c.Sent, len(ss))
			}
			parts = append(parts, ss[c.Sent])
			q.Provenance = append(q.Provenance, model.V2Provenance{Doc: c.Doc, Clause: c.Clause})
		}
		if len(parts) > 0 {
			a := strings.Join(parts, "；")
			q.Answer = &a
		}
		out = append(out, q)
	}
	return out, nil
}
