package localapitest_test

import (
	"net/http"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

func TestNewTestServer(t *testing.T) {
	srv := localapitest.NewTestServer(t, localapi.Options{})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/api/projects/1/pipeline_transformation_configs/", nil)
	req.Header.Set("Authorization", "Bearer "+localapi.KeyFull)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200", resp.StatusCode)
	}
	if got := srv.Counters()["list"]; got != 1 {
		t.Fatalf("list counter %d, want 1", got)
	}
}
