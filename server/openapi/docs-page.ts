/**
 * The API reference page. The UI bundle comes from our own origin and its web fonts are switched off, so the
 * page renders with no network beyond this service. The document URL is an attribute value, escaped.
 */
export function docsPage(documentUrl: string): string {
  // No web fonts, and none of the hosted-service features (AI agent, MCP generation, deploy toolbar): each
  // would call out to the UI vendor's servers, which a partner's network (or ours, offline) may not reach.
  const configuration = JSON.stringify({
    withDefaultFonts: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showToolbar: 'never',
    documentDownloadType: 'both',
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hotel Connectivity Service: API reference</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}</style>
</head>
<body>
<script id="api-reference" data-url="${escapeAttribute(documentUrl)}" data-configuration="${escapeAttribute(configuration)}"></script>
<script src="/v1/qc/docs/api-reference.js"></script>
</body>
</html>
`;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
