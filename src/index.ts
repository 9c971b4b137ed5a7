import Koa from 'koa';
import Router from '@koa/router';
import knex from 'knex';
const app = new Koa(); const r = new Router();
console.log(typeof app, typeof r, typeof knex);
