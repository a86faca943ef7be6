// TextEncoder and TextDecoder are the only host APIs the core uses: they exist in every
// runtime it targets (workerd, Node, browsers) but in no ES lib, so they are declared here.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array): string;
}
