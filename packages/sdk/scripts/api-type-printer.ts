/**
 * Prints the contract's types as plain TypeScript: the compiler resolves each operation's body,
 * query and data (the same helpers the ts-rest client uses), and this module writes the resolved
 * structure out, naming the contract's type aliases where a type is one of them. The result
 * resolves without zod, ts-rest or the contract installed.
 */
import { resolve } from 'node:path';
import ts from 'typescript';
import { insertAt, type RouteTree } from './route-tree';

/** One operation of the contract, by its keys (`['webhooks', 'legacy', 'create']`). */
export interface RouteAddress {
  path: string[];
}

// The probe lives beside this script, so module resolution starts in the SDK's package.
const probeFile = resolve(import.meta.dirname, '__api-probe__.ts');
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PARTS = ['body', 'query', 'data'] as const;

function probeSource(routes: readonly RouteAddress[]): string {
  const lines = [
    "import type * as C from '@switchboard/contract';",
    "import type { AppRoute, ClientInferRequest, ClientInferResponseBody } from '@ts-rest/core';",
    'type Success = 200 | 201 | 202 | 204;',
    'type Unwrap<B> = B extends { success: true; data: infer D } ? D : B;',
    'type Part_body<R extends AppRoute> = ClientInferRequest<R> extends { body: infer B } ? B : never;',
    'type Part_query<R extends AppRoute> = ClientInferRequest<R> extends { query: infer Q } ? Q : never;',
    "type Part_data<R extends AppRoute> = Unwrap<ClientInferResponseBody<R, Extract<keyof R['responses'], Success>>>;",
  ];
  routes.forEach((route, index) => {
    const access = route.path.map((key) => `[${JSON.stringify(key)}]`).join('');
    for (const part of PARTS) {
      lines.push(`export type R${index}_${part} = Part_${part}<(typeof C.contract)${access}>;`);
    }
  });
  return `${lines.join('\n')}\n`;
}

/**
 * Resolves every operation's types and prints them, with the contract's named types they use
 * (and `rootTypes`, used or not), as one TypeScript module.
 */
export function printApiTypes(
  routes: readonly RouteAddress[],
  rootTypes: readonly string[],
): string {
  const source = probeSource(routes);
  const options: ts.CompilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => (file === probeFile ? source : readFile(file));
  host.fileExists = (file) => file === probeFile || fileExists(file);
  host.getSourceFile = (file, language, onError, create) =>
    file === probeFile
      ? ts.createSourceFile(file, source, language, true)
      : getSourceFile(file, language, onError, create);
  const program = ts.createProgram([probeFile], options, host);
  const probe = program.getSourceFile(probeFile);
  if (probe === undefined) throw new Error('the probe file did not load');
  const problems = ts.getPreEmitDiagnostics(program, probe);
  if (problems.length > 0) {
    throw new Error(ts.formatDiagnostics(problems, host));
  }
  const checker = program.getTypeChecker();

  // The contract's non-generic type aliases, by the identity of the type they name.
  const named = new Map<ts.Type, string>();
  const byName = new Map<string, ts.Type>();
  const documentation = new Map<string, string>();
  const contractImport = probe.statements.find(ts.isImportDeclaration);
  const moduleSymbol =
    contractImport && checker.getSymbolAtLocation(contractImport.moduleSpecifier);
  if (moduleSymbol === undefined) throw new Error('@switchboard/contract did not resolve');
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol =
      exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(symbol.flags & ts.SymbolFlags.TypeAlias)) continue;
    const declaration = symbol.declarations?.find(ts.isTypeAliasDeclaration);
    if (declaration === undefined || declaration.typeParameters !== undefined) continue;
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    byName.set(exported.name, type);
    const docs = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
    if (docs !== '') documentation.set(exported.name, docs);
    if (!named.has(type)) named.set(type, exported.name);
  }

  // Named unions by their members, to recognise one with `undefined` added.
  const unionKey = (members: readonly ts.Type[]) =>
    members
      .map((member) => (member as ts.Type & { id: number }).id)
      .sort((a, b) => a - b)
      .join(',');
  const unionNames = new Map<string, string>();
  for (const [type, name] of named) {
    if (type.isUnion() && !unionNames.has(unionKey(type.types))) {
      unionNames.set(unionKey(type.types), name);
    }
  }

  const used = new Set<string>();
  // A named type of the standard library (`Record<…>` and other anonymous types are printed out).
  const isLibrary = (symbol: ts.Symbol | undefined) =>
    symbol !== undefined &&
    symbol.name !== '__type' &&
    (symbol.declarations ?? []).some((declaration) =>
      program.isSourceFileDefaultLibrary(declaration.getSourceFile()),
    );

  const print = (type: ts.Type, indent: string, root = false): string => {
    const name = root ? undefined : named.get(type);
    if (name !== undefined) {
      used.add(name);
      return name;
    }
    const flags = type.flags;
    if (flags & ts.TypeFlags.Boolean) return 'boolean';
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return 'unknown';
    if (flags & ts.TypeFlags.String) return 'string';
    if (flags & ts.TypeFlags.Number) return 'number';
    if (flags & ts.TypeFlags.BigInt) return 'bigint';
    if (flags & ts.TypeFlags.Null) return 'null';
    if (flags & ts.TypeFlags.Undefined) return 'undefined';
    if (flags & ts.TypeFlags.Void) return 'void';
    if (flags & ts.TypeFlags.Never) return 'never';
    if (type.isStringLiteral()) return JSON.stringify(type.value);
    if (type.isNumberLiteral()) return String(type.value);
    if (flags & ts.TypeFlags.BooleanLiteral) return checker.typeToString(type);
    if (type.isUnion()) {
      // `Name | undefined` for an optional field whose type is a named union.
      const defined = type.types.filter((member) => !(member.flags & ts.TypeFlags.Undefined));
      const namedUnion =
        defined.length < type.types.length ? unionNames.get(unionKey(defined)) : undefined;
      if (namedUnion !== undefined && !root) {
        used.add(namedUnion);
        return `${namedUnion} | undefined`;
      }
      return unionMembers(type)
        .map((member) => print(member, indent))
        .join(' | ');
    }
    if (type.isIntersection()) {
      return type.types.map((member) => wrap(print(member, indent))).join(' & ');
    }
    if (checker.isArrayType(type)) {
      const [element] = checker.getTypeArguments(type as ts.TypeReference);
      const readonly = type.getSymbol()?.name === 'ReadonlyArray' ? 'readonly ' : '';
      return `${readonly}${wrap(print(element as ts.Type, indent))}[]`;
    }
    if (checker.isTupleType(type)) {
      const elements = checker.getTypeArguments(type as ts.TypeReference);
      return `[${elements.map((element) => print(element, indent)).join(', ')}]`;
    }
    if (isLibrary(type.getSymbol())) return checker.typeToString(type);
    if (flags & ts.TypeFlags.Object) return printObject(type, indent);
    throw new Error(`cannot print the type ${checker.typeToString(type)}`);
  };

  // `boolean` arrives as `false | true` inside a larger union: fold it back.
  const unionMembers = (type: ts.UnionType): ts.Type[] => {
    const members = type.types.filter((member) => !(member.flags & ts.TypeFlags.BooleanLiteral));
    const booleans = type.types.length - members.length;
    if (booleans === 2) return [...members, checker.getBooleanType()];
    return type.types;
  };

  const wrap = (text: string) => (/[|&]/.test(text) && !/^[{[]/.test(text) ? `(${text})` : text);

  const printObject = (type: ts.Type, indent: string): string => {
    if (type.getCallSignatures().length > 0) {
      throw new Error(`a function type in the contract: ${checker.typeToString(type)}`);
    }
    const inner = `${indent}  `;
    const members: string[] = [];
    for (const info of checker.getIndexInfosOfType(type)) {
      members.push(`${inner}[key: ${print(info.keyType, inner)}]: ${print(info.type, inner)};`);
    }
    for (const property of checker.getPropertiesOfType(type)) {
      const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
      const key = IDENTIFIER.test(property.name) ? property.name : JSON.stringify(property.name);
      members.push(
        `${inner}${key}${optional}: ${print(checker.getTypeOfSymbol(property), inner)};`,
      );
    }
    if (members.length === 0) return '{}';
    return `{\n${members.join('\n')}\n${indent}}`;
  };

  const operations: RouteTree<(readonly [string, ts.Type])[]> = {};
  routes.forEach((route, index) => {
    const parts = PARTS.map((part) => {
      const alias = probe.statements.find(
        (statement): statement is ts.TypeAliasDeclaration =>
          ts.isTypeAliasDeclaration(statement) && statement.name.text === `R${index}_${part}`,
      );
      if (alias === undefined) throw new Error(`no probe for ${route.path.join('.')}`);
      return [part, checker.getTypeAtLocation(alias.name)] as const;
    });
    insertAt(operations, route.path, parts);
  });

  const printOperations = (node: Record<string, unknown>, indent: string): string => {
    const inner = `${indent}  `;
    const lines = Object.entries(node).map(([key, value]) => {
      if (Array.isArray(value)) {
        const parts = (value as [string, ts.Type][])
          .map(([part, type]) => `${inner}  ${part}: ${print(type, `${inner}  `)};`)
          .join('\n');
        return `${inner}${key}: {\n${parts}\n${inner}};`;
      }
      return `${inner}${key}: ${printOperations(value as Record<string, unknown>, inner)};`;
    });
    return `{\n${lines.join('\n')}\n${indent}}`;
  };

  const operationsText = printOperations(operations, '');
  for (const name of rootTypes) {
    if (!byName.has(name)) throw new Error(`the contract exports no type ${name}`);
    used.add(name);
  }
  // Printing a named type can use further named types: print until nothing new appears.
  const printed = new Map<string, string>();
  for (
    let pending = [...used];
    pending.length > 0;
    pending = [...used].filter((n) => !printed.has(n))
  ) {
    for (const name of pending) printed.set(name, print(byName.get(name) as ts.Type, '', true));
  }
  const declarations = [...printed.keys()].sort().map((name) => {
    const docs = (documentation.get(name) ?? `The contract's \`${name}\`.`).replaceAll(
      '*/',
      '*\\/',
    );
    return `/** ${docs.replaceAll('\n', '\n * ')} */\nexport type ${name} = ${printed.get(name)};`;
  });
  return [
    ...declarations,
    "/** The body, query and data (the success envelope's `data`) of every operation the SDK calls. */",
    `export interface Operations ${operationsText}`,
    '',
  ].join('\n\n');
}
