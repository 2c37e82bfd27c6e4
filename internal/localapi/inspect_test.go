package localapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

func TestStoredConfigShowsSecrets(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.form(http.MethodPost, path(1, tr), full, map[string]string{
		"plugin": "1", "order": "0", "config": `{"api_key": "s3cr3t", "locale": "en"}`,
	}).want(t, 201).object(t)
	if config(t, rec)["api_key"] != mask {
		t.Fatalf("the response must mask the secret: %v", config(t, rec))
	}
	raw, err := a.srv.StoredConfig(1, id(rec))
	if err != nil {
		t.Fatal(err)
	}
	var stored map[string]any
	if err := json.Unmarshal(raw, &stored); err != nil || stored["api_key"] != "s3cr3t" || stored["locale"] != "en" {
		t.Errorf("stored config %s (%v), want the secret unmasked", raw, err)
	}
	if _, err := a.srv.StoredConfig(2, id(rec)); err == nil {
		t.Error("a config of another project must not be found")
	}
}

func TestStoredRecordsHoldWhatAnswersDoNot(t *testing.T) {
	a := newAPI(t, localapi.Options{})
	rec := a.form(http.MethodPost, path(1, tr), full, map[string]string{
		"plugin": "1", "order": "0", "name": "  own  ", "config": `{"api_key": "s3cr3t"}`,
	}).want(t, 201).object(t)
	gone := a.create(1, tr, full, map[string]any{"plugin": 1, "order": 1})
	a.do(http.MethodPatch, path(1, tr, id(gone)), full, map[string]any{"deleted": true}).want(t, 200)
	recs, err := a.srv.StoredRecords(1)
	if err != nil {
		t.Fatal(err)
	}
	got := recs[id(rec)]
	if got.Name == nil || *got.Name != "own" || !strings.Contains(string(got.Config), "s3cr3t") || got.Description != nil {
		t.Errorf("stored %+v, want the own name stripped, no description and the secret unmasked", got)
	}
	if !recs[id(gone)].Deleted {
		t.Errorf("a deleted config must be listed as deleted: %+v", recs[id(gone)])
	}
	if other, err := a.srv.StoredRecords(2); err != nil || len(other) != 0 {
		t.Errorf("project 2 holds %v (%v), want none", other, err)
	}
}
