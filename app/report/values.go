package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Values is a small set of named numbers — an item's metric values, its
// usage entries or its latency by stage — kept as (name, value) pairs
// sorted by name: one allocation of 24 bytes a pair instead of a map per
// item (≈ 250–310 bytes for a map of 2–5 entries). Lookups are a binary
// search. Its JSON is the object map[string]float64 gives (keys sorted,
// numbers as encoding/json writes a float64; nil → null), so a report is
// byte-identical whichever way it was held. The zero value is empty; the
// pairs may share their backing array with a copy, so a Values handed to
// a report is not written afterwards.
type Values []Named

// Named is one entry of Values.
type Named struct {
	Name  string
	Value float64
}

// ValuesOf returns m's entries as Values (nil when m is nil).
func ValuesOf(m map[string]float64) Values {
	if m == nil {
		return nil
	}
	v := make(Values, 0, len(m))
	for k, x := range m {
		v = append(v, Named{k, x})
	}
	slices.SortFunc(v, func(a, b Named) int { return strings.Compare(a.Name, b.Name) })
	return v
}

func (v Values) find(name string) (int, bool) {
	return slices.BinarySearchFunc(v, name, func(e Named, n string) int { return strings.Compare(e.Name, n) })
}

// Get returns the value of name and whether it is present.
func (v Values) Get(name string) (float64, bool) {
	if i, ok := v.find(name); ok {
		return v[i].Value, true
	}
	return 0, false
}

// Has reports whether name is present.
func (v Values) Has(name string) bool {
	_, ok := v.find(name)
	return ok
}

// Set sets name to x, adding it in name order when absent.
func (v *Values) Set(name string, x float64) {
	i, ok := v.find(name)
	if ok {
		(*v)[i].Value = x
		return
	}
	*v = slices.Insert(*v, i, Named{name, x})
}

// Delete removes name when present.
func (v *Values) Delete(name string) {
	if i, ok := v.find(name); ok {
		*v = slices.Delete(*v, i, i+1)
	}
}

// All yields every entry in name order.
func (v Values) All() iter.Seq2[string, float64] {
	return func(yield func(string, float64) bool) {
		for _, e := range v {
			if !yield(e.Name, e.Value) {
				return
			}
		}
	}
}

// Names yields every name, in order.
func (v Values) Names() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, e := range v {
			if !yield(e.Name) {
				return
			}
		}
	}
}

// Map returns the entries as a new map (nil when v is nil).
func (v Values) Map() map[string]float64 {
	if v == nil {
		return nil
	}
	m := make(map[string]float64, len(v))
	for _, e := range v {
		m[e.Name] = e.Value
	}
	return m
}

// Compact returns v with no spare capacity (a copy when it has some), so
// a Values kept for long holds no more than its pairs.
func (v Values) Compact() Values {
	if cap(v) == len(v) || v == nil {
		return v
	}
	return slices.Clip(slices.Clone(v))
}

// MarshalJSON writes v as encoding/json writes a map[string]float64: an
// object with the keys sorted, null for nil, an error for NaN or ±Inf.
func (v Values) MarshalJSON() ([]byte, error) {
	if v == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 2+len(v)*24)
	b = append(b, '{')
	for i, e := range v {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(e.Name)
		if err != nil {
			return nil, err
		}
		b = append(b, k...)
		b = append(b, ':')
		if b, err = appendFloat(b, e.Value); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads a JSON object of numbers (null → nil).
func (v *Values) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		*v = nil
		return nil
	}
	var m map[string]float64
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	*v = ValuesOf(m)
	return nil
}

// appendFloat is encoding/json's float64 encoding (floatEncoder, bits 64):
// the shortest 'f' form, 'e' form below 1e-6 or from 1e21 on, with the
// exponent's leading zero dropped (1e-07 → 1e-7).
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	abs := math.Abs(f)
	fmtc := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmtc = 'e'
	}
	b = strconv.AppendFloat(b, f, fmtc, -1, 64)
	if fmtc == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// String formats v like a map: map[a:1 b:2].
func (v Values) String() string {
	return fmt.Sprint(v.Map())
}

// At returns the value of name, 0 when absent (as a map index does).
func (v Values) At(name string) float64 {
	x, _ := v.Get(name)
	return x
}
