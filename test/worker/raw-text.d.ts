// Vite's `?raw` import: a file's text as a string (the corpus files the Worker tests read).
declare module "*?raw" {
  const text: string;
  export default text;
}
