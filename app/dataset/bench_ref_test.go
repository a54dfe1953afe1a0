package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"eval752/app/model"
)

// BenchmarkLoadB2Reference is the same-run reference for BenchmarkLoadB2:
// the standard library alone splitting the same 10,000 lines and decoding
// each twice (generic with UseNumber, then into model.B2) — no duplicate-key
// or UTF-8 checks, no schema, no findings. The ratio of the two medians is
// what strict, located validation costs over a plain decode.
func BenchmarkLoadB2Reference(b *testing.B) {
	data := b2BenchData(b)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		n := 0
		for sc.Scan() {
			d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			d.UseNumber()
			var v any
			if err := d.Decode(&v); err != nil {
				b.Fatal(err)
			}
			var rec model.B2
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 10000 {
			b.Fatalf("%d lines", n)
		}
	}
}

// b2BenchData is the benchmarks' input: the seed 000 §1 example line
// repeated 10,000 times with distinct query ids.
func b2BenchData(b *testing.B) []byte {
	line, err := os.ReadFile("testdata/seed/b2.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for i := 0; i < 10000; i++ {
		buf.Write(bytes.Replace(line, []byte(`.pdf:0"`), []byte(`.pdf:`+strconv.Itoa(i)+`"`), 1))
	}
	return buf.Bytes()
}
