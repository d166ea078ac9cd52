// express4 is Express 4 installed under an alias, to test both majors; its API matches these types closely enough.
declare module 'express4' {
  import express from 'express';
  export default express;
}
