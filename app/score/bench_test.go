package score

import (
	"eval752/app/report"
	"fmt"
	"math/rand/v2"
	"testing"

	"eval752/app/itemscore"
	"eval752/app/metrics"
)

// BenchmarkScoreLarge aggregates 10 000 units × 2 runs × the default
// retrieval, answer and refusal metrics with 5 strata keys.
func BenchmarkScoreLarge(b *testing.B) {
	set := largeSet(b, 10000)
	b.ResetTimer()
	for range b.N {
		Score(set, DefaultOptions())
	}
}

func largeSet(tb testing.TB, n int) *itemscore.Set {
	var descs []metrics.Descriptor
	for _, d := range metrics.Registry() {
		if d.Group == metrics.GroupRetrieval || d.Group == metrics.GroupAnswer && d.Name == "answer.correct" ||
			d.Name == "refusal.tp" || d.Name == "refusal.fp" || d.Name == "refusal.fn" {
			descs = append(descs, d)
		}
	}
	r := rand.New(rand.NewPCG(1, 1))
	set := &itemscore.Set{Metrics: descs}
	for i := range n {
		set.Units = append(set.Units, itemscore.Unit{ID: fmt.Sprint(i), Answerable: i%5 != 0, Strata: map[string]string{
			"split": []string{"dev", "test"}[i%2], "modality": []string{"pdf", "image", "video"}[i%3],
			"type": fmt.Sprint("t", i%4), "difficulty": []string{"easy", "hard"}[i%2], "source": fmt.Sprint("s", i%7)}})
	}
	for _, name := range []string{"a", "b"} {
		rs := itemscore.RunScores{Run: name}
		for i := range n {
			v := map[string]float64{"refusal.tp": 0, "refusal.fp": 0, "refusal.fn": 0}
			if set.Units[i].Answerable {
				for _, d := range descs {
					if d.Group == metrics.GroupRetrieval || d.Group == metrics.GroupAnswer {
						v[d.Name] = float64(r.IntN(2))
					}
				}
			} else {
				v["refusal.tp"] = float64(r.IntN(2))
				v["refusal.fn"] = 1 - v["refusal.tp"]
			}
			rs.Items = append(rs.Items, itemscore.ItemScore{Values: report.ValuesOf(v)})
		}
		set.Runs = append(set.Runs, rs)
	}
	return set
}

// BenchmarkCompareLarge compares the two runs of the large set.
func BenchmarkCompareLarge(b *testing.B) {
	set := largeSet(b, 10000)
	b.ResetTimer()
	for range b.N {
		if _, err := Compare(set, "a", "b", DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}
