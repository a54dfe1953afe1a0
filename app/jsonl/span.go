package jsonl

import "strconv"

// MemberValue returns the bytes of the value of key in the JSON object b,
// exactly as written (what encoding/json hands a json.RawMessage field);
// for a repeated key, the last one (the value encoding/json keeps). b must
// be one valid JSON object, e.g. a line Decode accepted; ok is false when
// the key is absent or b is not an object.
func MemberValue(b []byte, key string) (raw []byte, ok bool) {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipWS(b, i)
		if i >= len(b) || b[i] != '"' {
			return raw, ok // '}' (or not JSON)
		}
		ks := i
		i = skipString(b, i)
		k := b[ks:i]
		i = skipWS(b, i)
		if i >= len(b) || b[i] != ':' {
			return raw, ok
		}
		i = skipWS(b, i+1)
		vs := i
		i = skipValue(b, i)
		if i < 0 {
			return nil, false
		}
		if keyIs(k, key) {
			raw, ok = b[vs:i], true
		}
		i = skipWS(b, i)
		if i >= len(b) || b[i] != ',' {
			return raw, ok
		}
		i++
	}
}

// keyIs reports whether the quoted key token k (quotes included) is key.
func keyIs(k []byte, key string) bool {
	body := k[1 : len(k)-1]
	for _, c := range body {
		if c == '\\' {
			s, err := strconv.Unquote(string(k))
			if err != nil {
				// JSON escapes strconv does not read (\/ , lone
				// surrogates): decode the key as the decoder does
				d := decoder{b: k}
				ds, ok := d.str()
				return ok && ds == key
			}
			return s == key
		}
	}
	return string(body) == key
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the offset after the string starting at b[i] ('"').
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// skipValue returns the offset after the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	// number, true, false, null: up to the next delimiter
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return i
}
