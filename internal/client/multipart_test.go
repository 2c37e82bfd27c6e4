package client

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestJSONBodyWithoutConfig(t *testing.T) {
	tests := []struct {
		name string
		in   RecordInput
		want string
	}{
		{"only what is set", RecordInput{Plugin: Some[int64](7), Order: Some[int64](2)}, `{"plugin":7,"order":2}`},
		{"nothing set", RecordInput{}, `{}`},
		{"null fields", RecordInput{Name: Null[string](), Description: Null[string]()},
			`{"name":null,"description":null}`},
		{"cleared filters", RecordInput{Filters: Some(json.RawMessage(`{}`))}, `{"filters":{}}`},
		{"every field", RecordInput{
			Plugin: Some[int64](1), Enabled: Some(false), Order: Some[int64](-3), Name: Some(""), Description: Some("d \"q\""),
			Deleted: Some(true), Filters: Some(json.RawMessage(`{"events": [{"id": "$pageview", "type": "events"}]}`)),
		}, `{"plugin":1,"enabled":false,"order":-3,"name":"","description":"d \"q\"","deleted":true,"filters":{"events":[{"id":"$pageview","type":"events"}]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
			c := newTestClient(t, srv.URL)
			if _, err := c.Update(context.Background(), "1", Transformations, 42, tt.in); err != nil {
				t.Fatal(err)
			}
			req := srv.requests()[0]
			if req.Method != http.MethodPatch || req.ContentType != "application/json" {
				t.Fatalf("sent %s with %q", req.Method, req.ContentType)
			}
			if string(req.Body) != tt.want {
				t.Fatalf("\n got %s\nwant %s", req.Body, tt.want)
			}
		})
	}
}

func TestMultipartWhenConfigIsSet(t *testing.T) {
	type form map[string]string
	tests := []struct {
		name   string
		in     RecordInput
		want   form
		absent []string
	}{
		{
			name: "create with everything",
			in: RecordInput{
				Plugin: Some[int64](7), Enabled: Some(true), Order: Some[int64](12), Name: Some("Geo IP"),
				Description: Some("line1\nline2 ünïcode"), Deleted: Some(false),
				Filters:  Some(json.RawMessage(`{"events": [{"id": "$pageview", "type": "events"}]}`)),
				Settings: Some(json.RawMessage(`{"apiKey": "plugin-secret", "n": 1}`)),
			},
			want: form{
				"config": `{"apiKey":"plugin-secret","n":1}`, "plugin": "7", "enabled": "true", "order": "12",
				"name": "Geo IP", "description": "line1\nline2 ünïcode", "deleted": "false",
				"filters": `{"events": [{"id": "$pageview", "type": "events"}]}`,
			},
		},
		{
			name:   "only config",
			in:     RecordInput{Settings: Some(json.RawMessage(`{}`))},
			want:   form{"config": `{}`},
			absent: []string{"plugin", "enabled", "order", "name", "description", "deleted", "filters"},
		},
		{
			name: "null fields are empty values",
			in: RecordInput{Settings: Null[json.RawMessage](), Name: Null[string](), Description: Null[string](),
				Order: Null[int64](), Enabled: Null[bool]()},
			want:   form{"config": `{}`, "name": "", "description": "", "order": "", "enabled": ""},
			absent: []string{"plugin", "deleted", "filters"},
		},
		{
			name: "cleared filters are {}",
			in:   RecordInput{Settings: Some(json.RawMessage(`{"n": 1}`)), Filters: Some(json.RawMessage(`{}`))},
			want: form{"config": `{"n":1}`, "filters": `{}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string][]string{}
			var ctype string
			srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
				ctype = r.Header.Get("Content-Type")
				r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
				if err := r.ParseMultipartForm(1 << 20); err != nil { //nolint:gosec // bounded by MaxBytesReader
					t.Errorf("server cannot parse the form: %v", err)
				} else {
					got = r.MultipartForm.Value
				}
				success(w, r)
			})
			c := newTestClient(t, srv.URL)
			if _, err := c.Create(context.Background(), "1", Transformations, tt.in); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(ctype, "multipart/form-data; boundary=") {
				t.Fatalf("content type %q", ctype)
			}
			for k, v := range tt.want {
				if len(got[k]) != 1 || got[k][0] != v {
					t.Errorf("field %s: got %q, want %q", k, got[k], v)
				}
			}
			for _, k := range tt.absent {
				if _, ok := got[k]; ok {
					t.Errorf("field %s should be left out, got %q", k, got[k])
				}
			}
		})
	}
}

// The service refuses null filters (400 "No data provided" in JSON, "Value
// must be valid JSON." for a form's empty value), so the client sends none.
func TestNullFiltersAreRefusedBeforeSending(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
	c := newTestClient(t, srv.URL)
	for _, in := range []RecordInput{
		{Filters: Null[json.RawMessage]()},
		{Filters: Null[json.RawMessage](), Settings: Some(json.RawMessage(`{}`))},
	} {
		_, err := c.Update(context.Background(), "1", Transformations, 42, in)
		if err == nil || !strings.Contains(err.Error(), "filters cannot be null") {
			t.Errorf("update with null filters: %v, want a refusal", err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

func TestMultipartBodyIsResentWholeOnRetry(t *testing.T) {
	var forms []map[string][]string
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
		if err := r.ParseMultipartForm(1 << 20); err != nil { //nolint:gosec // bounded by MaxBytesReader
			t.Errorf("attempt %d: %v", n, err)
		} else {
			forms = append(forms, r.MultipartForm.Value)
		}
		if n == 0 {
			writeJSON(w, 503, envelope("server_error", "x", "busy", ""))
			return
		}
		success(w, r)
	})
	c := newTestClient(t, srv.URL)
	in := RecordInput{Enabled: Some(true), Settings: Some(json.RawMessage(`{"k":"v"}`))}
	if _, err := c.Update(context.Background(), "1", Transformations, 42, in); err != nil {
		t.Fatal(err)
	}
	if len(forms) != 2 || forms[1]["config"][0] != `{"k":"v"}` || forms[1]["enabled"][0] != "true" {
		t.Fatalf("the retry must carry the same form: %v", forms)
	}
}

func TestInvalidInputIsRefusedBeforeSending(t *testing.T) {
	tests := []struct {
		name string
		in   RecordInput
		want string
	}{
		{"filters not JSON", RecordInput{Filters: Some(json.RawMessage(`{events:`))}, "filters"},
		{"config not JSON", RecordInput{Settings: Some(json.RawMessage(`nope`))}, "config"},
		{"config not an object", RecordInput{Settings: Some(json.RawMessage(`[1,2]`))}, "config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) { success(w, r) })
			c := newTestClient(t, srv.URL)
			_, err := c.Create(context.Background(), "1", Transformations, tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) || srv.count() != 0 {
				t.Fatalf("want an error naming %s and no request, got %v (%d requests)", tt.want, err, srv.count())
			}
		})
	}
}
