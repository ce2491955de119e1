import { isConnectionLost } from '../../db/connection-loss.js';
import { isDatabaseError } from '../../db/constraint-violations.js';
import { AppError } from '../../lib/errors.js';

/**
 * A case's write that the database refuses for a reason of its own (not a rule the service
 * checked first, which answers its own code) is CASE_NOT_SAVED (spec §8: "The case could not
 * be saved"): the case editor then says the case was not saved and keeps what the author
 * wrote. A lost connection stays DATABASE_UNAVAILABLE (503, retry), and anything that is
 * not the database's stays what it is. The database's error goes to the log as the cause.
 */
export async function savingCase<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof AppError || isConnectionLost(error) || !isDatabaseError(error)) throw error;
    throw new AppError('CASE_NOT_SAVED', { cause: error });
  }
}
