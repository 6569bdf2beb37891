/**
 * A Lua script as the code that runs it declares it: its name (its file's in some lua/, less the key count)
 * and the decoder of its raw reply. A raw reply is what ioredis and the hot connection both give: integers
 * as numbers, bulk strings as strings, nil (a Lua false) as null, tables as arrays. Each script's header
 * says what it returns; the Scripts runner answers a call with what the decoder makes of it.
 */
export type Script<Reply> = { readonly name: string; readonly decode: (raw: unknown) => Reply };

/** What a call of `script` answers. */
export type ScriptReply<S extends Script<unknown>> = ReturnType<S['decode']>;

export const script = <Reply>(name: string, decode: (raw: unknown) => Reply): Script<Reply> => ({ name, decode });
