/** Any class a spec builds over fakes. */
type Constructed = new (...args: any) => any;

/** A parameter list with every type let go: as many arguments (and as optional), of any type. */
type Unchecked<P extends unknown[]> = { [K in keyof P]: unknown };

/**
 * `new Service(...fakes)`: the fakes stand in for the constructor's parameters in order. Each is taken as its
 * parameter's type unchecked, as `fake as unknown as T` at every argument took it; their number is checked.
 */
export function construct<C extends Constructed>(
  Service: C,
  ...fakes: Unchecked<ConstructorParameters<C>>
): InstanceType<C> {
  return new Service(...(fakes as unknown[]));
}
