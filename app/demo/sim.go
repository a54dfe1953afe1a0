package demo

import (
	"hash/fnv"
	"math"
	"strconv"
	"strings"

	"eval752/app/model"
)

// RunNames are the demo's two runs, in run_config.json order.
var RunNames = []string{"bm25", "hybrid-rerank"}

// unit returns a number in [0, 1) fixed by its key: the demo's only source of
// "randomness", so every build is byte-identical (STYLE: explicit seeds).
func unit(key ...string) float64 {
	h := fnv.New64a()
	h.Write([]byte("eval752-demo-seed-42"))
	for _, k := range key {
		h.Write([]byte{0})
		h.Write([]byte(k))
	}
	return float64(h.Sum64()>>11) / float64(1<<53)
}

// between maps unit(key) onto [lo, hi), rounded to 0.1.
func between(lo, hi float64, key ...string) float64 {
	return math.Round((lo+(hi-lo)*unit(key...))*10) / 10
}

func bigrams(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range tokens(s) {
		out[t] = true
	}
	return out
}

func jaccard(a, b map[string]bool) float64 {
	inter := 0
	for t := range a {
		if b[t] {
			inter++
		}
	}
	u := len(a) + len(b) - inter
	if u == 0 {
		return 0
	}
	return float64(inter) / float64(u)
}

// simulateRAGRun produces one seed-003 §6.2 prediction.
//
// bm25: the BM25 top 10 are retrieved and the top 5 go to the generator.
// hybrid-rerank: fused = ½·BM25/max + ½·Jaccard(query, chunk)/max over the
// top 20; a simulated reranker then adds 0.6·grade/3 for 80 % of questions
// (it recognises the evidence) and subtracts 0.3·grade/3 for the other 20 %
// (it is fooled), plus a little noise; the reranked top 10 are kept and the
// top 5 go to the generator. So the second run is better on most questions
// and worse on some, as a real comparison is.
func simulateRAGRun(run string, q model.RAGQuestion, lex []scored, rel map[string]int, chunks []model.RAGChunk) model.RAGPrediction {
	p := model.RAGPrediction{RunID: run, QID: q.QID}
	text := map[string]string{}
	for _, c := range chunks {
		text[c.ChunkID] = c.Text
	}
	var context []string
	if run == "bm25" {
		for _, s := range lex[:10] {
			p.RetrievedChunkIDs = append(p.RetrievedChunkIDs, s.id)
			p.VectorScores = append(p.VectorScores, round3(s.score))
		}
		context = p.RetrievedChunkIDs[:5]
	} else {
		maxL := lex[0].score
		qb := bigrams(q.Query)
		fused := make([]scored, len(lex))
		maxD := 0.0
		dense := map[string]float64{}
		for _, s := range lex {
			d := jaccard(qb, bigrams(text[s.id]))
			dense[s.id] = d
			maxD = math.Max(maxD, d)
		}
		for i, s := range lex {
			f := 0.0
			if maxL > 0 {
				f += 0.5 * s.score / maxL
			}
			if maxD > 0 {
				f += 0.5 * dense[s.id] / maxD
			}
			fused[i] = scored{s.id, f}
		}
		sortScored(fused)
		fused = fused[:20]
		fooled := unit(run, q.QID, "reranker") >= 0.8
		rr := make([]scored, len(fused))
		for i, s := range fused {
			p.RetrievedChunkIDs = append(p.RetrievedChunkIDs, s.id)
			p.VectorScores = append(p.VectorScores, round3(s.score))
			g := float64(rel[s.id]) / 3
			adj := 0.6 * g
			if fooled {
				adj = -0.3 * g
			}
			rr[i] = scored{s.id, s.score + adj + 0.05*unit(run, q.QID, s.id)}
		}
		sortScored(rr)
		for _, s := range rr[:10] {
			p.RerankedChunkIDs = append(p.RerankedChunkIDs, s.id)
			p.RerankScores = append(p.RerankScores, round3(s.score))
		}
		context = p.RerankedChunkIDs[:5]
	}
	best := 0
	for _, id := range context {
		if rel[id] > best {
			best = rel[id]
		}
	}
	refuse := func() {
		a := RefusalPhrase
		p.Answer = &a
		t := true
		p.Refused = &t
	}
	switch {
	case !q.Answerable:
		refuse()
		// the two confident mistakes of the demo (false premise, missing spec)
		if run == "bm25" && q.QID == "q_dev_013" {
			a := "资料显示有 1 起死亡报告。"
			p.Answer, p.Refused = &a, nil
			p.Citations = []model.Citation{{Label: "S1", ChunkID: context[0]}}
		}
		if run == "hybrid-rerank" && q.QID == "q_test_014" {
			a := "PB-10 支持 15 W 无线快充。"
			p.Answer, p.Refused = &a, nil
			p.Citations = []model.Citation{{Label: "S1", ChunkID: context[0]}}
		}
	case best == 3:
		a := *q.ReferenceAnswer
		if len(q.AnswerAliases) > 0 && unit(run, q.QID, "alias") < 0.3 {
			a = q.AnswerAliases[0]
		}
		p.Answer = &a
		n := 0
		for _, id := range context {
			if rel[id] >= 2 {
				n++
				p.Citations = append(p.Citations, model.Citation{Label: "S" + strconv.Itoa(n), ChunkID: id})
			}
		}
	case unit(run, q.QID, "miss") < 0.5:
		refuse() // over-refusal: the evidence was not in the context
	default:
		// an unsupported answer built from the top context chunk
		first := strings.SplitN(strings.SplitN(text[context[0]], "。", 2)[0], ". ", 2)[0]
		a := first
		p.Answer = &a
		p.Citations = []model.Citation{{Label: "S1", ChunkID: context[0]}}
	}
	lat := map[string]float64{
		"retrieve": between(8, 30, run, q.QID, "retrieve"),
		"generate": between(700, 2600, run, q.QID, "generate"),
	}
	use := map[string]float64{
		"llm_input_tokens":  float64(900 + int(600*unit(run, q.QID, "in"))),
		"llm_output_tokens": float64(30 + int(140*unit(run, q.QID, "out"))),
	}
	if run != "bm25" {
		lat["embedding"] = between(25, 70, run, q.QID, "embedding")
		lat["rerank"] = between(140, 420, run, q.QID, "rerank")
		use["embedding_tokens"] = float64(len([]rune(q.Query)))
		use["rerank_tokens"] = float64(20 * (len([]rune(q.Query)) + 60))
	}
	p.LatencyMS, p.Usage = lat, use
	return p
}
