package localapi_test

import (
	"encoding/json"
	"net/http"
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
