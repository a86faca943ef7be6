// The WHATWG URL parser, for the policy layer's purity check (src/agents/tsconfig.json), not the
// core's: policy/host-names.ts parses host names with it. It exists in every runtime the layer
// runs in (workerd, Node, browsers) but in no ES lib, so the part the layer reads is declared here.
declare class URL {
  static canParse(url: string, base?: string): boolean;
  constructor(url: string, base?: string);
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly username: string;
  readonly password: string;
}
