import { Column, Index } from 'typeorm';

/**
 * The `expires` of a short-lived row (a SAML request, a sign-in's state or code, a WebAuthn challenge) with
 * an index of its own, named `index`: the sweep that deletes the rows past their time reads by it.
 */
export function ExpiryColumn(index: string): PropertyDecorator {
  const column = Column({ type: 'timestamptz' });
  const byExpiry = Index(index);
  return (entity, property) => {
    // the order TypeScript applies `@Index(…) @Column(…)` written one above the other: the column first
    column(entity, property);
    byExpiry(entity, property);
  };
}
