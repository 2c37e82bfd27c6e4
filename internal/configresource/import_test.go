package configresource

import "testing"

func TestParseImportID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id, provider string
		project      string
		config       int64
		wantErr      bool
	}{
		{id: "1/42", project: "1", config: 42},
		{id: "@current/42", project: "@current", config: 42},
		{id: "42", provider: "2", project: "2", config: 42},
		{id: "3/42", provider: "2", project: "3", config: 42},
		{id: "42", wantErr: true},
		{id: "x/42", wantErr: true},
		{id: "0/42", wantErr: true},
		{id: "1/0", wantErr: true},
		{id: "1/-4", wantErr: true},
		{id: "1/abc", wantErr: true},
		{id: "1/42/7", wantErr: true},
		{id: "/42", wantErr: true},
	}
	for _, tt := range tests {
		project, config, err := parseImportID(tt.id, tt.provider)
		if (err != nil) != tt.wantErr {
			t.Errorf("parseImportID(%q, %q) error %v, want error %v", tt.id, tt.provider, err, tt.wantErr)
			continue
		}
		if err == nil && (project != tt.project || config != tt.config) {
			t.Errorf("parseImportID(%q, %q) = %s, %d; want %s, %d", tt.id, tt.provider, project, config, tt.project, tt.config)
		}
	}
}
