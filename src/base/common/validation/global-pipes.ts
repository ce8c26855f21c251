import { type PipeTransform, ValidationPipe } from '@nestjs/common';
import { validationExceptionFactory } from '../errors/validation-exception.factory.js';
import { HostileInputPipe } from './hostile-input.js';

/**
 * The global pipes, in order: installed by createApp (app.factory.ts) and by the controller-spec harness
 * (test/utils/controller-spec.ts), so both validate alike.
 */
export function globalPipes(): PipeTransform[] {
  return [
    // before validation: class-transformer recurses into whatever it is given
    new HostileInputPipe(),
    new ValidationPipe({
      whitelist: true,
      transform: true,
      exceptionFactory: validationExceptionFactory,
      validationError: { target: false, value: false },
    }),
  ];
}
