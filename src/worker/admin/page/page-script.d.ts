// page-script.js is imported by the Worker as text (wrangler.toml [[rules]] type = "Text"),
// never run there: it is the operator page's browser script.
declare const text: string;
export default text;
