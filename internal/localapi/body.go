package localapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
)

// maxBody bounds request bodies; the live service's limits are larger than
// anything a config needs.
const maxBody = 10 << 20

// body is a parsed request body: JSON (any value) or form fields. The live
// service parses JSON, multipart and urlencoded forms alike.
type body struct {
	// json is the decoded JSON value (numbers as json.Number); nil for an
	// empty body, for JSON null and for forms.
	json any
	// isNull is a body of JSON null, which is not an empty body.
	isNull bool
	// raw is the JSON body as sent, for what decoding loses (lone
	// surrogates); nil for forms.
	raw []byte
	// py is the JSON body as Python's json module reads it
	// (decodePyJSON), for the fields the service reads as Python values
	// (filters); nil for forms and when it could not be read so.
	py map[string]any
	// form holds form fields; nil unless the body was a form.
	form map[string][]string
}

func (b *body) isForm() bool { return b.form != nil }

// object returns the JSON body as an object; an empty body is {}.
func (b *body) object() (map[string]any, *apiError) {
	if b.isNull {
		return nil, errNullField("")
	}
	switch v := b.json.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return v, nil
	default:
		return nil, errInvalid("Invalid data. Expected a dictionary, but got "+pyType(v)+".", "")
	}
}

// field looks a writable field up in the body. Form values are strings
// (the last one when repeated, as Django's QueryDict does).
func (b *body) field(obj map[string]any, name string) (any, bool) {
	if b.form != nil {
		v, ok := b.formValue(name)
		if !ok {
			return nil, false
		}
		return v, true
	}
	v, ok := obj[name]
	return v, ok
}

// pyField looks a field up in the JSON body as Python read it, falling
// back to Go's reading of it.
func (b *body) pyField(obj map[string]any, name string) (any, bool) {
	if b.py != nil {
		v, ok := b.py[name]
		return v, ok
	}
	return b.field(obj, name)
}

// formValue looks a form field up (the last value when repeated).
func (b *body) formValue(name string) (string, bool) {
	vals, ok := b.form[name]
	if !ok || len(vals) == 0 {
		return "", false
	}
	return vals[len(vals)-1], true
}

// readBody parses the request body by its Content-Type.
func readBody(w http.ResponseWriter, r *http.Request) (*body, *apiError) {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	ct := r.Header.Get("Content-Type")
	mediaType := ""
	if ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil {
			return nil, errUnsupportedMedia(ct)
		}
		mediaType = mt
	}
	switch mediaType {
	case "multipart/form-data":
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			return nil, errParse("Multipart form parse error - " + err.Error())
		}
		// Attachments are not supported: drop any uploaded files now.
		_ = r.MultipartForm.RemoveAll()
		return &body{form: nonNilForm(r.MultipartForm.Value)}, nil
	case "application/x-www-form-urlencoded":
		if err := r.ParseForm(); err != nil {
			return nil, errParse("Form parse error - " + err.Error())
		}
		return &body{form: nonNilForm(r.PostForm)}, nil
	case "application/json", "":
		// No Content-Type: read the body as JSON. The live service would
		// see no data at all; reading it is kinder and changes nothing for
		// clients that follow the contract.
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return nil, errParse("JSON parse error - request body too large")
			}
			return nil, errParse("JSON parse error - " + err.Error())
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			return &body{}, nil
		}
		v, err := decodeJSON(raw)
		if err != nil {
			return nil, errParse("JSON parse error - " + err.Error())
		}
		b := &body{json: v, isNull: v == nil, raw: raw}
		py, err := decodePyJSON(raw, false)
		var long intDigitsError
		switch {
		case errors.As(err, &long):
			// Python refuses an integer literal of more than 4300 digits
			// anywhere in the body.
			return nil, errParse("JSON parse error - " + err.Error())
		case err == nil:
			b.py, _ = py.(map[string]any)
		}
		return b, nil
	default:
		if strings.HasSuffix(mediaType, "+json") {
			r.Header.Set("Content-Type", "application/json")
			return readBody(w, r)
		}
		return nil, errUnsupportedMedia(ct)
	}
}

func nonNilForm(v map[string][]string) map[string][]string {
	if v == nil {
		return map[string][]string{}
	}
	return v
}

// decodeJSON decodes one JSON value, keeping numbers exact.
func decodeJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("extra data after the JSON value")
	}
	return v, nil
}

// marshalJSON encodes v compactly without HTML escaping.
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
