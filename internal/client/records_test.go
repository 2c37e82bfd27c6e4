package client

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestRecordDecodesOddShapes(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	tests := []struct {
		name  string
		body  string
		check func(t *testing.T, r Record)
	}{
		{"config object", `{"id":1,"config":{"k":"v","n":2}}`, func(t *testing.T, r Record) {
			eqRaw(t, "config", r.Settings, raw(`{"k":"v","n":2}`))
		}},
		{"config string", `{"id":1,"config":"{\"k\":\"v\"}"}`, func(t *testing.T, r Record) {
			eqRaw(t, "config", r.Settings, raw(`"{\"k\":\"v\"}"`))
		}},
		{"config null", `{"id":1,"config":null}`, func(t *testing.T, r Record) {
			eqRaw(t, "config", r.Settings, raw(`null`))
		}},
		{"config absent", `{"id":1}`, func(t *testing.T, r Record) {
			if r.Settings != nil || r.PluginInfo != nil || r.Filters != nil {
				t.Fatalf("absent raw fields must stay nil: %+v", r)
			}
		}},
		{"plugin_info object", `{"id":1,"plugin_info":{"name":"geoip","public_jobs":{"x":{}}}}`, func(t *testing.T, r Record) {
			eqRaw(t, "plugin_info", r.PluginInfo, raw(`{"name":"geoip","public_jobs":{"x":{}}}`))
		}},
		{"plugin_info null (list pages)", `{"id":1,"plugin_info":null}`, func(t *testing.T, r Record) {
			eqRaw(t, "plugin_info", r.PluginInfo, raw(`null`))
		}},
		{"delivery_rate_24h number", `{"id":1,"delivery_rate_24h":0.98}`, func(t *testing.T, r Record) {
			eqRaw(t, "delivery_rate_24h", r.DeliveryRate24h, raw(`0.98`))
		}},
		{"delivery_rate_24h null", `{"id":1,"delivery_rate_24h":null}`, func(t *testing.T, r Record) {
			eqRaw(t, "delivery_rate_24h", r.DeliveryRate24h, raw(`null`))
		}},
		{"delivery_rate_24h string", `{"id":1,"delivery_rate_24h":"0.98"}`, func(t *testing.T, r Record) {
			eqRaw(t, "delivery_rate_24h", r.DeliveryRate24h, raw(`"0.98"`))
		}},
		{"error null", `{"id":1,"error":null}`, func(t *testing.T, r Record) { eqRaw(t, "error", r.Error, raw(`null`)) }},
		{"error string", `{"id":1,"error":"boom"}`, func(t *testing.T, r Record) { eqRaw(t, "error", r.Error, raw(`"boom"`)) }},
		{"error object", `{"id":1,"error":{"message":"boom","time":"2024-01-01"}}`, func(t *testing.T, r Record) {
			eqRaw(t, "error", r.Error, raw(`{"message":"boom","time":"2024-01-01"}`))
		}},
		{"filters null", `{"id":1,"filters":null}`, func(t *testing.T, r Record) { eqRaw(t, "filters", r.Filters, raw(`null`)) }},
		{"filters object", `{"id":1,"filters":{"events":[{"id":"$pageview","type":"events","properties":[]}]}}`, func(t *testing.T, r Record) {
			eqRaw(t, "filters", r.Filters, raw(`{"events":[{"id":"$pageview","type":"events","properties":[]}]}`))
		}},
		{"numbers as strings", `{"id":"5","plugin":"7","order":" 3 ","team_id":"2","enabled":"true","deleted":"false"}`, func(t *testing.T, r Record) {
			if r.ID != 5 || r.Plugin != 7 || r.Order != 3 || r.TeamID != 2 || !r.Enabled || r.Deleted {
				t.Fatalf("got %+v", r)
			}
		}},
		{"integral floats and null numbers", `{"id":5.0,"plugin":null,"order":-2,"team_id":null,"enabled":null}`, func(t *testing.T, r Record) {
			if r.ID != 5 || r.Plugin != 0 || r.Order != -2 || r.TeamID != 0 || r.Enabled {
				t.Fatalf("got %+v", r)
			}
		}},
		{"null name, description and dates", `{"id":1,"name":null,"description":null,"created_at":null}`, func(t *testing.T, r Record) {
			if r.Name != nil || r.Description != nil || r.CreatedAt != "" {
				t.Fatalf("got %+v", r)
			}
		}},
		{"unknown fields ignored", `{"id":1,"name":"x","brand_new_field":{"a":[1,2]},"plugin_type":"source"}`, func(t *testing.T, r Record) {
			if r.ID != 1 || r.Name == nil || *r.Name != "x" {
				t.Fatalf("got %+v", r)
			}
		}},
		{"full live record", recordJSON, func(t *testing.T, r Record) {
			if r.ID != 42 || r.Plugin != 7 || !r.Enabled || r.Order != 3 || r.TeamID != 1 ||
				*r.Name != "n" || *r.Description != "d" || r.Deleted || r.CreatedAt != "2024-06-01T10:00:00.123456Z" {
				t.Fatalf("got %+v", r)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Record
			if err := json.Unmarshal([]byte(tt.body), &r); err != nil {
				t.Fatalf("decode: %v", err)
			}
			tt.check(t, r)
		})
	}
}

func TestRecordRejectsNonIntegerID(t *testing.T) {
	for _, body := range []string{`{"id":"abc"}`, `{"id":1.5}`, `{"enabled":"maybe"}`} {
		var r Record
		if err := json.Unmarshal([]byte(body), &r); err == nil {
			t.Errorf("%s: want an error, got %+v", body, r)
		}
	}
}

func TestRecordDecodeReplacesPreviousValues(t *testing.T) {
	r := Record{ID: 9, Settings: json.RawMessage(`{"old":1}`)}
	if err := json.Unmarshal([]byte(`{"id":3}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.ID != 3 || r.Settings != nil {
		t.Fatalf("got %+v", r)
	}
}

func TestGetDecodesThroughTheClient(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"id":"42","plugin":7,"config":{"a":1},"plugin_info":null,"delivery_rate_24h":null,"error":null,"filters":null,"extra":true}`)
	})
	c := newTestClient(t, srv.URL)
	r, err := c.Get(context.Background(), "1", Transformations, 42)
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != 42 || string(r.Settings) != `{"a":1}` || string(r.PluginInfo) != "null" {
		t.Fatalf("got %+v", r)
	}
}

func TestSuccessThatIsNotJSONIsAnError(t *testing.T) {
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><body>Please log in to the corporate portal</body></html>"))
	})
	c := newTestClient(t, srv.URL)
	_, err := c.Get(context.Background(), "1", Transformations, 42)
	if err == nil || !strings.Contains(err.Error(), "Please log in to the corporate portal") || !strings.Contains(err.Error(), "GET /api/projects/1/pipeline_transformation_configs/42/") {
		t.Fatalf("want a decode error that shows the body, got %v", err)
	}
}

func eqRaw(t *testing.T, name string, got, want json.RawMessage) {
	t.Helper()
	if string(got) != string(want) {
		t.Fatalf("%s: got %s, want %s", name, got, want)
	}
}
