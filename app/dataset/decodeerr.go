package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"eval752/app/jsonl"
)

// decodeProblem turns the typed decoder's error on a record that passed its
// schema into what a user can act on: the JSON pointer of the offending
// value inside the record and a sentence without Go's type names. The usual
// case is a number out of range (1e400, an integer beyond 64 bits), which
// JSON Schema accepts but no reader can hold.
func decodeProblem(raw map[string]any, err error) (pointer, msg string) {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return "", strings.TrimPrefix(err.Error(), "json: ")
	}
	val := strings.TrimPrefix(te.Value, "number ")
	var path []string
	if te.Field != "" {
		path = strings.Split(te.Field, ".")
	}
	pointer = findValue(raw, path, val)
	want := kindName(te.Type)
	if strings.HasPrefix(te.Value, "number") {
		return pointer, fmt.Sprintf("the number %s does not fit %s", val, want)
	}
	return pointer, fmt.Sprintf("%s where %s is expected", te.Value, want)
}

// findValue returns the pointer of the value at the dotted field path
// (object keys; arrays on the way are searched element by element) whose
// JSON number text is val, else of the first value at that path; "" when
// the path names nothing.
func findValue(v any, path []string, val string) string {
	var exact, first string
	var walk func(v any, path []string, ptr string) bool
	walk = func(v any, path []string, ptr string) bool {
		switch x := v.(type) {
		case []any:
			for k, e := range x {
				if walk(e, path, ptr+"/"+strconv.Itoa(k)) {
					return true
				}
			}
			return false
		case map[string]any:
			if len(path) > 0 {
				e, ok := x[path[0]]
				return ok && walk(e, path[1:], ptr+"/"+jsonl.EscapePointer(path[0]))
			}
			// a map field (b-2's region): Go names the field, not the
			// key; look for the number among its values
			if first == "" {
				first = ptr
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if walk(x[k], nil, ptr+"/"+jsonl.EscapePointer(k)) {
					return true
				}
			}
			return false
		}
		if len(path) > 0 {
			return false
		}
		if first == "" {
			first = ptr
		}
		if n, ok := v.(json.Number); ok && n.String() == val {
			exact = ptr
			return true
		}
		return false
	}
	if walk(v, path, "") {
		return exact
	}
	return first
}

// kindName names what a Go type holds, in the user's terms.
func kindName(t reflect.Type) string {
	if t == nil {
		return "this field"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "a 64-bit integer (this field is a count or an offset)"
	case reflect.Int32, reflect.Int16, reflect.Int8:
		return "a small integer"
	case reflect.Uint, reflect.Uint64, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		return "a non-negative integer"
	case reflect.Float64, reflect.Float32:
		return "a 64-bit floating-point number (about ±1.8e308)"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "this field"
}
