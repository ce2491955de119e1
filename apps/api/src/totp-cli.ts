/**
 * `npm run totp -- <key>`: the current code of an authenticator app's key, for trying the demo
 * (or a test server) without an app on a phone. The key is the one the set-up screen shows
 * beside its QR code.
 */
import { generate } from 'otplib';

const key = process.argv.slice(2).join('').replace(/\s/g, '').toUpperCase();
if (!/^[A-Z2-7]{16,}=*$/.test(key)) {
  console.error('Usage: npm run totp -- <the key shown when setting up the authenticator app>');
  process.exit(2);
}
const code = await generate({ secret: key });
const secondsLeft = 30 - (Math.floor(Date.now() / 1000) % 30);
console.log(`${code}  (this code changes in ${secondsLeft} s)`);
