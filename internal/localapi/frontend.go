package localapi

import (
	"net/http"
	"strconv"
)

// noFrontend is the live stub for a plugin without a frontend.
const noFrontend = `export function getFrontendApp () { return {"no_frontend": true} }`

// frontend answers the plugin's frontend JavaScript (never JSON).
func (s *Server) frontend(req *request) *apiError {
	rec, e := s.findInCollection(req)
	if e != nil {
		return e
	}
	js := noFrontend
	if p := req.cat.get(rec.Plugin); p != nil && p.Frontend != "" {
		js = p.Frontend
	}
	h := req.w.Header()
	h.Set("Content-Type", "application/javascript")
	h.Set("Content-Length", strconv.Itoa(len(js)))
	req.w.WriteHeader(http.StatusOK)
	_, _ = req.w.Write([]byte(js))
	return nil
}
